// Shared pieces of the run_process tests: a scratch directory, file reading, process checks.
#pragma once

#include "process/process.hpp"

#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>

namespace aorta::test {

class scratch_dir {
public:
  scratch_dir() {
    std::string pattern =
        (std::filesystem::temp_directory_path() / "aorta-process-XXXXXX").string();
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
  [[nodiscard]] std::filesystem::path operator/(const std::string& name) const {
    return m_path / name;
  }

private:
  std::filesystem::path m_path;
};

inline std::string read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

inline void write_file(const std::filesystem::path& path, const std::string& content) {
  std::ofstream out(path, std::ios::binary);
  out << content;
}

// A spec that logs into `dir` and does not echo, with a small fixed environment.
inline process_spec logged_spec(const scratch_dir& dir, std::vector<std::string> argv) {
  process_spec spec;
  spec.argv = std::move(argv);
  spec.environment = {{"PATH", "/usr/bin:/bin"}};
  spec.stdout_log = dir / "stdout.log";
  spec.stderr_log = dir / "stderr.log";
  spec.echo = false;
  return spec;
}

// Dead means no such process, or a zombie nobody has reaped yet (our pid 1 may never reap it).
inline bool process_is_dead(pid_t pid) {
  if (::kill(pid, 0) != 0) return errno == ESRCH;
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string line;
  std::getline(stat, line);
  const auto after_name = line.rfind(')');
  return after_name != std::string::npos && after_name + 2 < line.size() &&
         line[after_name + 2] == 'Z';
}

inline bool dies_within(pid_t pid, std::chrono::milliseconds limit) {
  const auto give_up = std::chrono::steady_clock::now() + limit;
  while (!process_is_dead(pid)) {
    if (std::chrono::steady_clock::now() > give_up) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return true;
}

inline pid_t read_pid(const std::filesystem::path& pidfile) {
  std::istringstream in(read_file(pidfile));
  pid_t pid = 0;
  in >> pid;
  return pid;
}

}  // namespace aorta::test
