// Fuzz target: Nsight Compute's CSV reader (aorta::read_ncu_capture) on one file.
#include "aorta/error.hpp"
#include "captures/ncu_reader.hpp"
#include "fuzz_input_file.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto file = aorta::fuzz::write_input(data, size, "ncu.csv");
  try {
    (void)aorta::read_ncu_capture(file);
  } catch (const aorta::error&) {
  }
  return 0;
}
