// Fuzz target: the rocpd SQLite reader (one *_results.db through read_rocpd_database, with the
// step, time and memory budgets cut down so an endless view ends well inside libFuzzer's
// -timeout). Every documented failure is an aorta::error; anything else escaping, or a crash, is
// a finding.
#include "aorta/error.hpp"
#include "captures/frame_tree.hpp"
#include "captures/rocpd_reader.hpp"

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <unistd.h>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("aorta_fuzz_rocpd" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const std::filesystem::path file = dir / "aorta_results.db";
  {
    std::ofstream out(file, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  }
  aorta::detail::rocpd_limits limits;
  limits.max_steps = 50'000'000;
  limits.max_time = std::chrono::seconds(3);
  limits.max_heap_bytes = std::uint64_t{256} << 20;
  limits.max_name_bytes = std::uint64_t{1} << 20;  // reached by a seed of two 1 MiB names
  try {
    aorta::detail::frame_tree_builder tree;
    std::vector<aorta::device_info> devices;
    std::vector<std::string> notes;
    aorta::detail::read_rocpd_database(file, tree, devices, notes, limits);
    aorta::capture out;
    tree.take_kernels(out);
    tree.finish(out);
  } catch (const aorta::error&) {
  }
  return 0;
}
