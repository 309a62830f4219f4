#include "metrics/anchor_hint.hpp"

#include "aorta/name_regex.hpp"
#include "metrics/display_names.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

namespace aorta::detail {

std::string regex_literal(std::string_view text) {
  constexpr std::string_view special = "\\^$.|?*+()[]{}";
  std::string out;
  for (const char c : text) {
    if (special.find(c) != std::string_view::npos) out += '\\';
    out += c;
  }
  return out;
}

std::string anchor_hint(std::string_view quantity, std::string_view argument,
                        const std::vector<std::string>& matches,
                        const std::vector<std::string>& all_names) {
  if (matches.empty()) return {};
  auto chosen = std::find(matches.begin(), matches.end(), argument);
  if (chosen == matches.end()) {
    chosen = std::find_if(matches.begin(), matches.end(),
                          [](const std::string& name) { return !is_system_frame(name); });
  }
  if (chosen == matches.end()) chosen = matches.begin();
  // Appended in place: GCC 12 at -O3 warns (-Wrestrict, a false positive) on "^" + temporary.
  std::string pattern = "^";
  pattern += regex_literal(*chosen);
  pattern += '$';
  try {
    const auto compiled = name_regex::compile(pattern);
    const auto hits = std::count_if(all_names.begin(), all_names.end(),
                                    [&](const std::string& name) { return compiled.search(name); });
    if (hits != 1) return {};
  } catch (const std::invalid_argument&) {
    return {};
  }
  return fmt::format(", e.g. {}({})", quantity, pattern);
}

}  // namespace aorta::detail
