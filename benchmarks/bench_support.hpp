// What the reader benchmarks share: generated input files in a temporary directory that is
// removed at exit, and the process's peak RSS.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <string>
#include <system_error>

#include <sys/resource.h>
#include <unistd.h>

#include <fmt/format.h>

namespace aorta::bench {

// Generates each size's input once, on first use, with `write(path, size)`.
class generated_inputs {
public:
  using writer = std::function<void(const std::filesystem::path&, std::int64_t)>;

  // `pattern` names one input, e.g. "proton_{}mb.hatchet" (size substituted).
  generated_inputs(std::string stem, std::string pattern, writer write)
      : m_dir(std::filesystem::temp_directory_path() / fmt::format("{}_{}", stem, ::getpid())),
        m_pattern(std::move(pattern)), m_write(std::move(write)) {}
  generated_inputs(const generated_inputs&) = delete;
  generated_inputs& operator=(const generated_inputs&) = delete;
  ~generated_inputs() {
    std::error_code ec;
    std::filesystem::remove_all(m_dir, ec);
  }

  const std::filesystem::path& get(std::int64_t size) {
    auto it = m_paths.find(size);
    if (it != m_paths.end()) return it->second;
    std::filesystem::create_directories(m_dir);
    const std::filesystem::path path = m_dir / fmt::format(fmt::runtime(m_pattern), size);
    m_write(path, size);
    return m_paths.emplace(size, path).first->second;
  }

private:
  std::filesystem::path m_dir;
  std::string m_pattern;
  writer m_write;
  std::map<std::int64_t, std::filesystem::path> m_paths;
};

inline double peak_rss_mib() {
  rusage usage{};
  ::getrusage(RUSAGE_SELF, &usage);
  return static_cast<double>(usage.ru_maxrss) / 1024.0;  // ru_maxrss is in KiB on Linux
}

}  // namespace aorta::bench
