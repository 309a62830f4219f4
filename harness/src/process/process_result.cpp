#include "aorta/process.hpp"

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

std::string process_result::describe() const {
  if (!timed_out) return describe_ending(*this);
  std::string text = fmt::format("timed out after {:.1f} s", wall_seconds);
  if (signal) {
    const char* abbreviation = ::sigabbrev_np(*signal);
    text += abbreviation != nullptr ? fmt::format(" (killed by SIG{})", abbreviation)
                                    : fmt::format(" (killed by signal {})", *signal);
  } else if (exit_status) {
    text += fmt::format(" (then exit {})", *exit_status);
  }
  return text;
}

}  // namespace aorta
