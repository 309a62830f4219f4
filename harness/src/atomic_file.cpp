#include "atomic_file.hpp"

#include "aorta/error.hpp"

#include <fmt/format.h>

#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <system_error>

namespace aorta::detail {

void write_file_atomically(const std::filesystem::path& path, std::string_view content) {
  // The pid and a counter keep concurrent writers (ctest -j, threads) off each other's temp file.
  static std::atomic<unsigned> counter{0};
  std::filesystem::path temporary = path;
  temporary += fmt::format(".tmp-{}-{}", ::getpid(), counter++);
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    if (!out) {
      throw setup_error(fmt::format("cannot write {}: {}; check that the directory exists and is "
                                    "writable",
                                    temporary.string(), std::strerror(errno)));
    }
    out.write(content.data(), static_cast<std::streamsize>(content.size()));
    out.close();
    if (!out) {
      std::error_code ignored;
      std::filesystem::remove(temporary, ignored);
      throw setup_error(fmt::format("writing {} failed (disk full?)", temporary.string()));
    }
  }
  std::error_code failure;
  std::filesystem::rename(temporary, path, failure);
  if (failure) {
    std::error_code ignored;
    std::filesystem::remove(temporary, ignored);
    throw setup_error(fmt::format("cannot move {} into place as {}: {}", temporary.string(),
                                  path.string(), failure.message()));
  }
}

}  // namespace aorta::detail
