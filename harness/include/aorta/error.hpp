// The one error hierarchy: every failure carries the exit code the CLI will map it to, so the
// single catch boundary in main() never has to guess.
#pragma once

#include <stdexcept>
#include <string>

namespace aorta {

// Exit codes, exactly as listed in docs/guards.md ("Exit codes").
enum class exit_code : int {
  ok = 0,        // payload passed and every check held
  failed = 1,    // payload failed, a check failed, or the capture is empty
  usage = 64,    // usage or recipe error (bad key, guard refused, bad check expression)
  // aorta itself broke (a bug, memory exhausted): never 1, so CTest and scripts can tell "aorta
  // broke" from "the test failed" (EX_SOFTWARE of sysexits.h).
  internal = 70,
  skipped = 77,  // this environment cannot run it (SKIP_RETURN_CODE 77)
  // aorta was interrupted (128 + the signal, as a shell reports a process killed by it): the run
  // stopped, no further trial ran, and the interrupted trial's result.json says so.
  interrupted_by_sighup = 129,
  interrupted_by_sigint = 130,
  interrupted_by_sigterm = 143,
};

// Where something came from in a recipe, a capture or a command line. line/column are 1-based;
// 0 means unknown.
struct source_location {
  std::string file;
  int line = 0;
  int column = 0;

  // "recipe.yaml:12:5", "recipe.yaml" or "" when nothing is known.
  [[nodiscard]] std::string to_string() const;
};

class error : public std::runtime_error {
public:
  error(exit_code code, const std::string& message) : std::runtime_error(message), m_code(code) {}
  [[nodiscard]] exit_code code() const noexcept { return m_code; }

private:
  exit_code m_code;
};

// Bad command-line use, a bad check expression: exit 64.
class usage_error : public error {
public:
  explicit usage_error(const std::string& message) : error(exit_code::usage, message) {}
};

// A recipe that does not validate, or a guard that refuses a combination: exit 64. The message
// always names the file, line, key, what is allowed and how to fix it.
class recipe_error : public error {
public:
  explicit recipe_error(const std::string& message) : error(exit_code::usage, message) {}
};

// A collector option that is wrong, raised by collector validation before the recipe loader knows
// the location. The loader rethrows it as a recipe_error with file:line of `key`.
class option_error : public error {
public:
  option_error(std::string collector, std::string key, const std::string& message)
      : error(exit_code::usage, message), m_collector(std::move(collector)), m_key(std::move(key)) {
  }
  [[nodiscard]] const std::string& collector() const noexcept { return m_collector; }
  // Empty when the error concerns the collector as a whole (e.g. a cross-collector conflict).
  [[nodiscard]] const std::string& key() const noexcept { return m_key; }

private:
  std::string m_collector;
  std::string m_key;
};

// This environment cannot run the test (no GPU, profiler missing): exit 77.
class skip_error : public error {
public:
  explicit skip_error(const std::string& reason) : error(exit_code::skipped, reason) {}
};

// A capture that cannot be read (malformed, truncated, unreadable): exit 1. The message names the
// file and, where known, the row or JSON position.
class capture_error : public error {
public:
  explicit capture_error(const std::string& message) : error(exit_code::failed, message) {}
};

// A read that stopped because aorta received SIGINT, SIGTERM or SIGHUP (a rocpd read sees it
// within a few thousand SQLite steps): exit 128 + the signal, as for an interrupted payload. Not a
// capture_error: the capture may be fine, so the trial's verdict is `error`, never a failed check.
class interrupted_error : public error {
public:
  interrupted_error(int signal_number, const std::string& message)
      : error(static_cast<exit_code>(128 + signal_number), message),
        m_signal_number(signal_number) {}
  [[nodiscard]] int signal_number() const noexcept { return m_signal_number; }

private:
  int m_signal_number;
};

// The run itself could not be set up (output dir not writable, spawn failed): exit 1.
class setup_error : public error {
public:
  explicit setup_error(const std::string& message) : error(exit_code::failed, message) {}
};

}  // namespace aorta
