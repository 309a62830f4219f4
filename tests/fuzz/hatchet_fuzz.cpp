// Fuzz target: Proton's hatchet JSON reader (aorta::read_hatchet_capture) on one file.
// Every documented failure is an aorta::error; anything else escaping is a finding.
#include "aorta/error.hpp"
#include "captures/hatchet_reader.hpp"
#include "fuzz_input_file.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto file = aorta::fuzz::write_input(data, size, "proton.hatchet");
  try {
    (void)aorta::read_hatchet_capture(file);
  } catch (const aorta::error&) {
  }
  return 0;
}
