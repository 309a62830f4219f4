// Fuzz target: rocprofv3's CSV readers (kernel stats, kernel trace, agent info), each on the same
// file, then the per-kernel totals as the capture reader sorts them.
#include "aorta/error.hpp"
#include "captures/rocprof_sources.hpp"
#include "fuzz_input_file.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto file = aorta::fuzz::write_input(data, size, "fuzz_kernel_trace.csv");
  std::vector<std::string> notes;
  try {
    aorta::detail::kernel_table stats;
    (void)aorta::detail::read_rocprof_kernel_stats(file, stats, notes);
    (void)stats.sorted(file.string());
  } catch (const aorta::error&) {
  }
  try {
    aorta::detail::kernel_table trace;
    (void)aorta::detail::read_rocprof_kernel_trace(file, trace, notes);
    (void)trace.sorted(file.string());
  } catch (const aorta::error&) {
  }
  try {
    (void)aorta::detail::read_rocprof_agent_info(file, notes);
  } catch (const aorta::error&) {
  }
  return 0;
}
