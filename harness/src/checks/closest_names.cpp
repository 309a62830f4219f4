#include "checks/closest_names.hpp"

#include "option_text.hpp"
#include "metrics/display_names.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <set>
#include <tuple>

namespace aorta::detail {
namespace {

constexpr std::size_t compared_chars = 200;

}  // namespace

std::string spelling_of(std::string_view text) {
  std::string out;
  for (const char c : text) {
    if (c != '^' && c != '$' && c != '\\') out += c;
    if (out.size() == compared_chars) break;
  }
  // `(below main)` starts with its parenthesis; only a later one opens an argument list.
  if (const auto open = out.find('('); open != std::string::npos && open > 0) out.resize(open);
  return out;
}

std::vector<std::string> closest_names(const std::vector<std::string>& names,
                                       std::string_view argument, std::size_t count) {
  const std::string wanted = spelling_of(argument);
  const std::set<std::string_view> distinct(names.begin(), names.end());
  std::vector<std::tuple<bool, std::size_t, std::string_view>> ranked;
  ranked.reserve(distinct.size());
  for (const std::string_view name : distinct) {
    ranked.emplace_back(is_system_frame(name), edit_distance(wanted, spelling_of(name)), name);
  }
  const std::size_t kept = std::min(count, ranked.size());
  std::partial_sort(ranked.begin(), ranked.begin() + static_cast<std::ptrdiff_t>(kept),
                    ranked.end());
  std::vector<std::string> out;
  for (std::size_t i = 0; i < kept; ++i) out.emplace_back(std::get<2>(ranked[i]));
  return out;
}

std::string closest_names_text(const std::vector<std::string>& names, std::string_view argument) {
  if (names.empty()) return "; there is no name to suggest";
  return fmt::format("; did you mean: {}", fmt::join(closest_names(names, argument), ", "));
}

}  // namespace aorta::detail
