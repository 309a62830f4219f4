#include "process/private_temp_dir.hpp"

#include "aorta/error.hpp"

#include <fmt/format.h>

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <string>
#include <system_error>
#include <vector>

namespace aorta::detail {

private_temp_dir::private_temp_dir(std::string_view prefix) {
  std::error_code ec;
  std::filesystem::path base = std::filesystem::temp_directory_path(ec);
  if (ec) base = "/tmp";
  const std::string pattern = (base / fmt::format("{}-XXXXXX", prefix)).string();
  std::vector<char> name(pattern.begin(), pattern.end());
  name.push_back('\0');
  if (::mkdtemp(name.data()) == nullptr) {
    throw setup_error(fmt::format("cannot make a private temporary directory {}: {}. Fix: point "
                                  "TMPDIR at a writable directory",
                                  pattern, std::strerror(errno)));
  }
  m_path = name.data();
}

private_temp_dir::~private_temp_dir() {
  std::error_code ignored;
  std::filesystem::remove_all(m_path, ignored);
}

std::filesystem::path private_temp_dir::create_file(std::string_view name) const {
  const std::filesystem::path file = m_path / std::string(name);
  const int fd = ::open(file.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
  if (fd < 0) {
    throw setup_error(fmt::format("cannot create {}: {}", file.string(), std::strerror(errno)));
  }
  ::close(fd);
  return file;
}

}  // namespace aorta::detail
