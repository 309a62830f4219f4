#include "sweep/output_lock.hpp"

#include "aorta/error.hpp"

#include <fmt/format.h>

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstring>
#include <string>
#include <system_error>

namespace aorta::detail {
namespace fs = std::filesystem;

namespace {

constexpr const char* lock_name = ".aorta.lock";

std::string owner_of(int fd) {
  std::array<char, 32> text{};
  const ssize_t got = ::pread(fd, text.data(), text.size() - 1, 0);
  std::string owner = got > 0 ? std::string(text.data(), static_cast<std::size_t>(got)) : "";
  while (!owner.empty() && (owner.back() == '\n' || owner.back() == ' ')) owner.pop_back();
  return owner.empty() || owner.find_first_not_of("0123456789") != std::string::npos
             ? "unknown pid"
             : "pid " + owner;
}

}  // namespace

void check_output_path(const fs::path& output_dir) {
  if (output_dir.empty()) {
    throw usage_error("--output is empty; give the directory the run writes trial_<n>/ into, "
                      "e.g. --output results");
  }
  std::error_code ec;
  const fs::path absolute = fs::absolute(output_dir, ec).lexically_normal();
  if (!ec && absolute == absolute.root_path()) {
    throw usage_error(fmt::format("--output {} is the file system root; aorta deletes and "
                                  "recreates trial_<n>/ below it. Give a directory of its own, "
                                  "e.g. --output results",
                                  output_dir.string()));
  }
  const auto status = fs::status(output_dir, ec);
  if (fs::exists(status) && !fs::is_directory(status)) {
    throw usage_error(fmt::format("--output {} exists and is not a directory. Remove it or give "
                                  "another --output",
                                  output_dir.string()));
  }
}

output_lock::output_lock(const fs::path& output_dir) {
  std::error_code ec;
  fs::create_directories(output_dir, ec);
  if (ec) {
    throw setup_error(fmt::format("cannot create output directory {}: {}. Fix the permissions or "
                                  "choose another --output.",
                                  output_dir.string(), ec.message()));
  }
  const fs::path path = output_dir / lock_name;
  m_file = unique_fd(::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644));
  if (!m_file.valid()) {
    const int failure = errno;
    throw setup_error(fmt::format("cannot open the lock file {}: {}. Fix the permissions or "
                                  "choose another --output.",
                                  path.string(), std::strerror(failure)));
  }
  int locked = -1;
  do {
    locked = ::flock(m_file.get(), LOCK_EX | LOCK_NB);
  } while (locked != 0 && errno == EINTR);
  if (locked != 0) {
    if (errno == EWOULDBLOCK) {
      throw setup_error(fmt::format(
          "output directory {} is in use by another aorta run ({}, still running; lock {}): two "
          "runs into one directory would mix their files. Wait for it to finish or choose "
          "another --output.",
          output_dir.string(), owner_of(m_file.get()), path.string()));
    }
    const int failure = errno;
    throw setup_error(fmt::format("cannot lock {}: {}", path.string(), std::strerror(failure)));
  }
  const std::string pid = std::to_string(::getpid()) + "\n";
  if (::ftruncate(m_file.get(), 0) != 0 ||
      ::pwrite(m_file.get(), pid.data(), pid.size(), 0) != static_cast<ssize_t>(pid.size())) {
    const int failure = errno;
    throw setup_error(fmt::format("cannot write {}: {} (check free space and permissions)",
                                  path.string(), std::strerror(failure)));
  }
}

}  // namespace aorta::detail
