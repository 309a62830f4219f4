// Moving the child's stdout and stderr from their pipes to the log files and, when echoing, to
// our own stdout/stderr. Chunks are copied as they come: binary-safe, no notion of lines.
#pragma once

#include "process/unique_fd.hpp"

#include <chrono>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace aorta::detail {

class output_pump {
public:
  // pipe_read_end becomes non-blocking. log_fd and echo_fd may be -1 (not written); log_fd is
  // borrowed, it must outlive the pump.
  void add(unique_fd pipe_read_end, int log_fd, std::filesystem::path log_path, int echo_fd);

  // Waits up to `timeout` for output (or a signal), then copies whatever is ready. A pipe whose
  // writers are all gone is closed. Returns early when interrupted by a signal, or when `wake_fd`
  // (if not -1; e.g. a pidfd, readable once the child exits) becomes readable.
  void pump(std::chrono::milliseconds timeout, int wake_fd = -1);

  [[nodiscard]] bool any_open() const noexcept;
  // Closes the pipes whether or not they reached end of file.
  void abandon() noexcept;

  // The first failure to write a log file, e.g. a full disk: "cannot write '<path>': <reason>".
  [[nodiscard]] const std::optional<std::string>& log_failure() const noexcept {
    return m_log_failure;
  }

private:
  struct stream {
    unique_fd pipe;
    int log_fd = -1;
    std::filesystem::path log_path;
    int echo_fd = -1;
  };

  void drain_ready(stream& source);

  std::vector<stream> m_streams;
  std::optional<std::string> m_log_failure;
};

}  // namespace aorta::detail
