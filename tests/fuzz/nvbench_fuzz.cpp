// Fuzz target: the nvbench JSON reader on one file, then its metrics.
#include "aorta/error.hpp"
#include "aorta/metrics.hpp"
#include "captures/nvbench_reader.hpp"
#include "fuzz_input_file.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto file = aorta::fuzz::write_input(data, size, "nvbench.json");
  try {
    (void)aorta::compute_metrics(aorta::read_nvbench_capture(file));
  } catch (const aorta::error&) {
  }
  return 0;
}
