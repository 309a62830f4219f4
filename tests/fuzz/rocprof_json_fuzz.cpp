// Fuzz target: rocprofv3's *_results.json reader, then the per-kernel totals.
#include "aorta/error.hpp"
#include "captures/rocprof_sources.hpp"
#include "fuzz_input_file.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto file = aorta::fuzz::write_input(data, size, "fuzz_results.json");
  std::vector<std::string> notes;
  try {
    aorta::detail::kernel_table table;
    (void)aorta::detail::read_rocprof_results_json(file, table, notes);
    (void)table.sorted(file.string());
  } catch (const aorta::error&) {
  }
  return 0;
}
