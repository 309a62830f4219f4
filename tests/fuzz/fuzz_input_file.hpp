// Shared by the fuzz targets whose reader takes a path: writes the input to a file of the name the
// reader dispatches on, in a directory of this process's own (on /dev/shm when there is one),
// removed when the process exits.
#pragma once

#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>
#include <system_error>

namespace aorta::fuzz {

class scratch_dir {
public:
  scratch_dir() {
    namespace fs = std::filesystem;
    std::error_code ec;
    const fs::path base =
        fs::is_directory("/dev/shm", ec) ? fs::path("/dev/shm") : fs::temp_directory_path();
    m_path = base / ("aorta_fuzz_" + std::to_string(::getpid()));
    fs::create_directories(m_path);
  }
  scratch_dir(const scratch_dir&) = delete;
  scratch_dir& operator=(const scratch_dir&) = delete;
  ~scratch_dir() {
    std::error_code ignored;
    std::filesystem::remove_all(m_path, ignored);
  }
  [[nodiscard]] const std::filesystem::path& path() const noexcept { return m_path; }

private:
  std::filesystem::path m_path;
};

// The input as <scratch>/<name>; the same path every call, so files never pile up.
inline std::filesystem::path write_input(const std::uint8_t* data, std::size_t size,
                                         std::string_view name) {
  static const scratch_dir dir;
  const std::filesystem::path file = dir.path() / name;
  std::ofstream out(file, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  return file;
}

}  // namespace aorta::fuzz
