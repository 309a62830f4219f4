// Fuzz target: Proton's hatchet JSON reader (aorta::read_hatchet_capture) on one file, then what
// reads its PC samples: the metrics (per-kernel, per-line and per-reason keys), a share check and
// `aorta view` with the share and stall columns. Every documented failure is an aorta::error;
// anything else escaping is a finding.
#include "aorta/check.hpp"
#include "aorta/error.hpp"
#include "aorta/metrics.hpp"
#include "captures/hatchet_reader.hpp"
#include "captures/tree_view.hpp"
#include "fuzz_input_file.hpp"

#include <sstream>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto file = aorta::fuzz::write_input(data, size, "proton.hatchet");
  try {
    const aorta::capture source = aorta::read_hatchet_capture(file);
    if (source.pc_samples.empty()) return 0;
    const aorta::metric_set metrics = aorta::compute_metrics(source);
    static const aorta::check_expression share = aorta::check_expression::parse(
        "stalls(., wait) / samples(., :1$) > 0.5");
    (void)aorta::evaluate_check(share, {source}, metrics);
    std::ostringstream text;
    aorta::tree_view_options options;
    options.metrics = {"samples", "share", "stalled"};
    aorta::render_hatchet_tree(file, options, text);
  } catch (const aorta::error&) {
  }
  return 0;
}
