// Shared by the *_wrap_test.cpp files: a scratch directory and fake executables in it, so binary
// and interpreter resolution run against real files and a real PATH.
#pragma once

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <system_error>

#include <sys/stat.h>

namespace aorta::test {

class scratch_dir {
public:
  scratch_dir() {
    std::string pattern = (std::filesystem::temp_directory_path() / "aorta-wrap-XXXXXX").string();
    if (::mkdtemp(pattern.data()) == nullptr) throw std::runtime_error("mkdtemp failed");
    m_path = pattern;
  }
  scratch_dir(const scratch_dir&) = delete;
  scratch_dir& operator=(const scratch_dir&) = delete;
  ~scratch_dir() {
    std::error_code ignored;
    std::filesystem::remove_all(m_path, ignored);
  }

  [[nodiscard]] const std::filesystem::path& path() const noexcept { return m_path; }

  // Writes `relative` with `content` and the given permission bits, creating parent directories.
  std::filesystem::path write(const std::filesystem::path& relative, const std::string& content,
                              ::mode_t mode = 0755) const {
    const auto target = m_path / relative;
    std::filesystem::create_directories(target.parent_path());
    std::ofstream(target) << content;
    ::chmod(target.c_str(), mode);
    return target;
  }

private:
  std::filesystem::path m_path;
};

}  // namespace aorta::test
