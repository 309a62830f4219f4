// callgrind option schema: every value arrives as text, like the other collectors.
#include "collectors/callgrind/callgrind_options.hpp"

#include "option_text.hpp"
#include "text_trim.hpp"

#include <fmt/format.h>

namespace aorta {

namespace {

constexpr std::string_view callgrind_name = "callgrind";

bool read_bool(const option_map& options, std::string_view key, bool fallback) {
  const auto* option = detail::find_option(options, key);
  if (option == nullptr) return fallback;
  const auto value = detail::parse_bool_text(option->text);
  if (!value) {
    detail::fail_option(
        callgrind_name, key,
        fmt::format("expected a boolean, got '{}'; allowed: true, false (also 1/0, yes/no, "
                    "on/off, any case). Fix: write {}: true or {}: false.",
                    option->text, key, key));
  }
  return *value;
}

}  // namespace

callgrind_options parse_callgrind_options(const option_map& options) {
  detail::reject_unknown_options(callgrind_name, options,
                                 {"toggle_collect", "cache_sim", "trace_children"});
  callgrind_options parsed;
  if (const auto* toggle = detail::find_option(options, "toggle_collect")) {
    std::string function{detail::trim(toggle->text)};
    if (function.empty()) {
      detail::fail_option(callgrind_name, "toggle_collect",
                          "is blank; allowed: a function name or pattern (valgrind "
                          "--toggle-collect, e.g. \"my_solver*\"). Fix: name the function, or "
                          "remove the option to collect the whole run.");
    }
    parsed.toggle_collect = std::move(function);
  }
  parsed.cache_sim = read_bool(options, "cache_sim", false);
  parsed.trace_children = read_bool(options, "trace_children", false);
  return parsed;
}

}  // namespace aorta
