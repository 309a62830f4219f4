// Fuzz target: Proton's data: trace reader (a .chrome_trace file through
// aorta::read_hatchet_capture). Every documented failure is an aorta::error; anything else
// escaping, or a crash, is a finding.
#include "aorta/error.hpp"
#include "captures/hatchet_reader.hpp"

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>

#include <unistd.h>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const std::filesystem::path dir = std::filesystem::temp_directory_path() /
                                           ("aorta_fuzz_chrome_trace" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  {
    std::ofstream out(dir / "proton.chrome_trace", std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  }
  try {
    (void)aorta::read_hatchet_capture(dir);
  } catch (const aorta::error&) {
  }
  return 0;
}
