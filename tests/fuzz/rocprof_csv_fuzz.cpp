// Fuzz target: rocprofv3's CSV readers (kernel stats, kernel trace, agent info), each on the same
// file, then the per-kernel totals as the capture reader sorts them. The kernel trace is also read
// in parts on three threads, cut every few bytes (captures/csv_parts.hpp): what it gives must be
// what one scanner gives, or the target traps.
#include "aorta/error.hpp"
#include "captures/rocprof_sources.hpp"
#include "fuzz_input_file.hpp"

#include <string>

namespace {

// The kernels or the error of one read of the trace, and its notes, as text.
std::string read_trace(const std::filesystem::path& file,
                       const aorta::detail::csv_parts_options& parts) {
  std::string out;
  try {
    aorta::detail::kernel_table trace;
    std::vector<std::string> notes;
    out += aorta::detail::read_rocprof_kernel_trace(file, trace, notes, parts) ? "any\n" : "none\n";
    for (const auto& note : notes) out += note + "\n";
    for (const auto& kernel : trace.sorted(file.string())) {
      out += kernel.name.str() + "|" + std::to_string(kernel.total_ns) + "|" +
             (kernel.launches ? std::to_string(*kernel.launches) : "?") + "\n";
    }
  } catch (const aorta::error& failure) {
    out += failure.what();
  }
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto file = aorta::fuzz::write_input(data, size, "fuzz_kernel_trace.csv");
  std::vector<std::string> notes;
  try {
    aorta::detail::kernel_table stats;
    (void)aorta::detail::read_rocprof_kernel_stats(file, stats, notes);
    (void)stats.sorted(file.string());
  } catch (const aorta::error&) {
  }
  aorta::detail::csv_parts_options one;
  one.max_parts = 1;
  aorta::detail::csv_parts_options split;
  split.max_parts = 3;
  split.min_part_bytes = 1 + size % 97;
  split.chunk_size = 64;
  if (read_trace(file, one) != read_trace(file, split)) __builtin_trap();
  try {
    (void)aorta::detail::read_rocprof_agent_info(file, notes);
  } catch (const aorta::error&) {
  }
  return 0;
}
