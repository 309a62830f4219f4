// Fuzz target: compute-sanitizer's text report reader (aorta::read_sanitizer_capture) on one file,
// then the metrics and a count_errors check over what it read.
#include "aorta/check.hpp"
#include "aorta/error.hpp"
#include "aorta/metrics.hpp"
#include "captures/sanitizer_reader.hpp"
#include "fuzz_input_file.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto file = aorta::fuzz::write_input(data, size, "sanitizer.log");
  try {
    const std::vector<aorta::capture> captures{aorta::read_sanitizer_capture(file)};
    const aorta::metric_set metrics = aorta::compute_metrics(captures.front());
    static const auto check = aorta::check_expression::parse("count_errors(kernel|Invalid) == 0");
    (void)aorta::evaluate_check(check, captures, metrics);
  } catch (const aorta::error&) {
  }
  return 0;
}
