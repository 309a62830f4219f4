#include "checks/function_checks.hpp"

#include "checks/closest_names.hpp"
#include "metrics/display_names.hpp"
#include "metrics/anchor_hint.hpp"
#include "metrics/quantity_table.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <string_view>
#include <utility>
#include <vector>

namespace aorta::detail {
namespace {

constexpr std::size_t function_listed_names = 10;
constexpr std::size_t function_context_rows = 5;

std::string function_names_text(const std::vector<std::string>& names) {
  if (names.size() <= function_listed_names) return fmt::format("{}", fmt::join(names, ", "));
  const std::vector<std::string> shown(names.begin(), names.begin() + function_listed_names);
  return fmt::format("{}, ... ({} more)", fmt::join(shown, ", "),
                     names.size() - function_listed_names);
}

bool has_regex_syntax(std::string_view argument) {
  return argument.find_first_of("\\^$.|?*+()[]{}") != std::string_view::npos;
}

}  // namespace

function_measure function_quantity(const capture& source, check_quantity quantity,
                                   const std::string& argument, const name_regex& pattern,
                                   bool absent_reads_zero) {
  std::vector<const function_cost*> matches;
  for (const auto& function : source.functions) {
    if (pattern.search(function.name)) matches.push_back(&function);
  }
  const std::string_view form = to_string(quantity);
  if (matches.empty()) {
    if (reads_zero_when_absent(quantity, absent_reads_zero))
      return {0.0, fmt::format("no function matches '{}'", argument)};
    std::vector<std::string> names;
    names.reserve(source.functions.size());
    for (const auto& function : source.functions) names.push_back(function.name);
    return {std::nullopt,
            fmt::format("no function of the {} capture matches '{}'; closest: {}", source.collector,
                        argument, function_names_text(closest_names(names, argument)))};
  }
  const quantity_declaration& declared = declaration_of(quantity);
  const bool sums = declared.matches_add_up && has_regex_syntax(argument);
  if (matches.size() > 1 && !sums) {
    std::vector<std::string> names;
    for (const auto* match : matches) names.push_back(match->name);
    std::vector<std::string> all_names;
    for (const auto& function : source.functions) all_names.push_back(function.name);
    const std::string_view why = !declared.matches_add_up
                                     ? "; anchor it"
                                     : "; name one (anchor it) or write a regex to sum them";
    return {std::nullopt, fmt::format("{}({}) matches {} functions: {}{}{}", form, argument,
                                      matches.size(), function_names_text(names), why,
                                      anchor_hint(form, argument, names, all_names))};
  }
  double total = 0.0;
  for (const auto* match : matches) total += static_cast<double>(match->*declared.reads.function);
  if (matches.size() == 1) return {total, {}};
  return {total, fmt::format("sum over {} functions", matches.size())};
}

std::string function_context(const capture& source) {
  std::vector<const function_cost*> ordered;
  for (const auto& function : source.functions) ordered.push_back(&function);
  std::stable_sort(ordered.begin(), ordered.end(),
                   [](const auto* a, const auto* b) { return a->inclusive_ir > b->inclusive_ir; });
  // The program's own functions: the loader's and libc's frames hold the most inclusive Ir of
  // any run (they call main) and are never what a check meant.
  const auto own_end = std::stable_partition(ordered.begin(), ordered.end(), [](const auto* f) {
    return !is_system_frame(f->name);
  });
  std::size_t own = static_cast<std::size_t>(own_end - ordered.begin());
  // A capture of the loader alone (a program without symbols): its frames are all there is.
  if (own == 0) own = ordered.size();
  std::string out = fmt::format("  {}functions with the most inclusive Ir ({}):\n",
                                own < ordered.size() ? "the program's " : "", source.collector);
  for (std::size_t i = 0; i < own && i < function_context_rows; ++i) {
    out += fmt::format("    {}  Ir {}  self {}  calls {}\n", ordered[i]->name,
                       ordered[i]->inclusive_ir, ordered[i]->self_ir, ordered[i]->calls);
  }
  if (own < ordered.size()) {
    out += fmt::format("    ({} loader/libc function(s) not listed)\n", ordered.size() - own);
  }
  return out;
}

}  // namespace aorta::detail
