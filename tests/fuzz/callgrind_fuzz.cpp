// Fuzz target: the callgrind profile reader (aorta::read_callgrind_capture) on one file.
#include "captures/callgrind_reader.hpp"
#include "aorta/error.hpp"
#include "fuzz_input_file.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto file = aorta::fuzz::write_input(data, size, "callgrind.out.1");
  try {
    (void)aorta::read_callgrind_capture(file);
  } catch (const aorta::error&) {
  }
  return 0;
}
