// sanitizer option schema: every value arrives as text, like the other collectors' options.
#include "collectors/sanitizer/sanitizer_options.hpp"

#include "aorta/error.hpp"
#include "option_text.hpp"
#include "text_trim.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>

namespace aorta {
namespace {

constexpr std::string_view sanitizer_name = "sanitizer";

const std::vector<std::string>& sanitizer_option_keys() {
  static const std::vector<std::string> keys{"tool", "leak_check", "padding", "target_processes",
                                               "fail_on_errors"};
  return keys;
}

// compute-sanitizer spells it `--leak-check full|no`; the recipe may also say yes/no/true/false.
bool parse_leak_check(const std::string& text) {
  const std::string word = detail::to_lower(detail::trim(text));
  if (word == "full") return true;
  if (const auto flag = detail::parse_bool_text(word)) return *flag;
  detail::fail_option(
      sanitizer_name, "leak_check",
      fmt::format("'{}' is not a leak-check setting; allowed: full, no (or true, "
                  "false, yes, on, off, 1, 0). Fix: leak_check: full reports device "
                  "allocations never freed (memcheck's --leak-check full).",
                  text));
}

std::uint64_t parse_padding(const std::string& text) {
  const std::string digits{detail::trim(text)};
  std::uint64_t value = 0;
  const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
  if (digits.empty() || error != std::errc{} || end != digits.data() + digits.size() ||
      value > max_sanitizer_padding_bytes) {
    detail::fail_option(
        sanitizer_name, "padding",
        fmt::format("expected a whole number of bytes from 0 to {}, got '{}'. Fix: "
                    "e.g. padding: 32 (memcheck's --padding: bytes added after each "
                    "allocation, so an overrun into the next one is caught).",
                    max_sanitizer_padding_bytes, text));
  }
  return value;
}

}  // namespace

const std::vector<std::string>& sanitizer_tools() {
  static const std::vector<std::string> tools{"memcheck", "racecheck", "initcheck", "synccheck"};
  return tools;
}

sanitizer_options parse_sanitizer_options(const option_map& options) {
  detail::reject_unknown_options(sanitizer_name, options, sanitizer_option_keys());
  sanitizer_options parsed;
  if (const auto* tool = detail::find_option(options, "tool")) {
    parsed.tool = detail::to_lower(detail::trim(tool->text));
    detail::require_one_of(sanitizer_name, "tool", parsed.tool, sanitizer_tools(),
                           "a compute-sanitizer tool",
                           "memcheck finds out-of-bounds and misaligned accesses and leaks, "
                           "racecheck shared-memory races, initcheck reads of uninitialised "
                           "global memory, synccheck invalid synchronisation.");
  }
  if (const auto* leak = detail::find_option(options, "leak_check")) {
    parsed.leak_check = parse_leak_check(leak->text);
  }
  if (const auto* padding = detail::find_option(options, "padding")) {
    parsed.padding = parse_padding(padding->text);
  }
  // `compute-sanitizer --help` lists these as memcheck-specific: under another tool they would
  // silently do nothing, so say so at load time.
  for (const std::string_view key : {"leak_check", "padding"}) {
    if (parsed.tool != "memcheck" && detail::find_option(options, key) != nullptr) {
      detail::fail_option(
          sanitizer_name, key,
          fmt::format("is a memcheck option, but tool is {}; allowed with tool: memcheck "
                      "only. Fix: remove {} or set tool: memcheck.",
                      parsed.tool, key));
    }
  }
  if (const auto* fail_on = detail::find_option(options, "fail_on_errors")) {
    const auto flag = detail::parse_bool_text(detail::to_lower(detail::trim(fail_on->text)));
    if (!flag) {
      detail::fail_option(
          sanitizer_name, "fail_on_errors",
          fmt::format("'{}' is not a boolean; allowed: true, false (or yes, no, on, off, 1, 0). "
                      "Fix: fail_on_errors: false leaves the verdict to the recipe's checks "
                      "(e.g. count_errors(REGEX) == 0).",
                      fail_on->text));
    }
    parsed.fail_on_errors = *flag;
  }
  if (const auto* target = detail::find_option(options, "target_processes")) {
    parsed.target_processes = detail::to_lower(detail::trim(target->text));
    detail::require_one_of(sanitizer_name, "target_processes", parsed.target_processes,
                           {"all", "application-only"}, "a compute-sanitizer process selection",
                           "all checks the payload and its child processes (the default), "
                           "application-only the payload's own process only.");
  }
  return parsed;
}

}  // namespace aorta
