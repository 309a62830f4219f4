#include "process/process.hpp"

#include <fmt/format.h>

#include <cstring>

namespace aorta {
namespace {

// "11 (SIGSEGV)"; the bare number when the C library does not know the signal.
std::string describe_signal(int signal_number) {
  const char* abbreviation = ::sigabbrev_np(signal_number);
  if (abbreviation == nullptr) return std::to_string(signal_number);
  return fmt::format("{} (SIG{})", signal_number, abbreviation);
}

std::string describe_ending(const process_result& result) {
  if (result.signal) return "signal " + describe_signal(*result.signal);
  if (result.exit_status) return "exit " + std::to_string(*result.exit_status);
  return "exit status unknown";
}

}  // namespace

std::string process_result::describe(const std::string& limit_origin) const {
  if (!timed_out) return describe_ending(*this);
  // The limit, not the wall time: what ran past it is said after, and why.
  std::string text = fmt::format("timed out after {:.1f} s", timeout_seconds);
  if (!limit_origin.empty()) text += fmt::format(" ({})", limit_origin);
  if (killed_after_grace) {
    text += fmt::format("; ignored SIGTERM, killed by SIGKILL after the {:g} s grace",
                        kill_grace_seconds);
  } else if (signal) {
    const char* abbreviation = ::sigabbrev_np(*signal);
    text += abbreviation != nullptr ? fmt::format("; ended by SIG{}", abbreviation)
                                    : fmt::format("; ended by signal {}", *signal);
  } else if (exit_status) {
    text += fmt::format("; then exit {}", *exit_status);
  }
  return text;
}

}  // namespace aorta
