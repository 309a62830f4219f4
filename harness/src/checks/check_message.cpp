#include "checks/check_message.hpp"

#include <fmt/format.h>

namespace aorta::detail {

std::string passed_check_message(const check_result& result) {
  return fmt::format("check passed: {} (actual: {})", result.expression, result.actual);
}

std::string failed_check_message(const check_result& result, const std::string& why) {
  std::string message = fmt::format("check failed: {}\n  expected: {}\n  actual:   {}\n",
                                    result.expression, result.expected, result.actual);
  if (!why.empty()) message += fmt::format("  why:      {}\n", why);
  return message;
}

}  // namespace aorta::detail
