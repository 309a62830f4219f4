#include "checks/pc_sample_checks.hpp"

#include "aorta/error.hpp"
#include "aorta/name_regex.hpp"
#include "checked_sum.hpp"
#include "metrics/quantity_table.hpp"
#include "text_trim.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <set>
#include <stdexcept>

namespace aorta::detail {
namespace {

constexpr std::size_t sampled_context_rows = 5;

std::vector<std::string_view> split_pc_sample_parts(std::string_view argument) {
  std::vector<std::string_view> parts;
  int depth = 0;
  bool in_bracket = false;
  std::size_t start = 0;
  for (std::size_t i = 0; i < argument.size(); ++i) {
    const char c = argument[i];
    if (c == '\\') {
      ++i;  // the escaped character is literal, a comma included
    } else if (in_bracket) {
      in_bracket = c != ']';
    } else if (c == '[') {
      in_bracket = true;
    } else if (c == '(' || c == '{') {
      ++depth;
    } else if ((c == ')' || c == '}') && depth > 0) {
      --depth;
    } else if (c == ',' && depth == 0) {
      parts.push_back(trim(argument.substr(start, i - start)));
      start = i + 1;
    }
  }
  parts.push_back(trim(argument.substr(std::min(start, argument.size()))));
  return parts;
}

std::vector<std::string> distinct_names(std::set<std::string> names) {
  return {names.begin(), names.end()};
}

// Adds `more` to `total` by the readers' one rule (checked_sum.hpp), or keeps why it cannot in
// `refused`: a sum past max_count is not measured, never wrapped, and a check is no place to
// throw a capture's error.
void add_samples_checked(std::uint64_t& total, std::uint64_t more, std::string_view where,
                         std::string& refused) {
  if (!refused.empty()) return;
  try {
    total = add_count(total, more, where, "PC samples");
  } catch (const capture_error& error) {
    refused = error.what();
  }
}

pc_sample_measure no_pc_sample_match(std::string what, std::set<std::string> names,
                                     std::string_view wanted) {
  return {0.0, std::move(what), true, distinct_names(std::move(names)), std::string(wanted)};
}

std::string summed_over_lines(std::size_t kernels, std::size_t lines, bool line_given) {
  std::string remark;
  if (kernels > 1) remark = fmt::format("{} kernels", kernels);
  if (line_given && lines > 1) {
    remark += fmt::format("{}{} lines", remark.empty() ? "" : ", ", lines);
  }
  return remark.empty() ? remark : "sum over " + remark;
}

const capture* first_with_samples(const std::vector<capture>& captures) {
  for (const auto& candidate : captures) {
    if (!candidate.pc_samples.empty()) return &candidate;
  }
  return nullptr;
}

std::string no_samples_reason(const std::vector<capture>& captures, check_quantity quantity) {
  std::string collectors;
  for (const auto& each : captures) {
    collectors += fmt::format("{}{}", collectors.empty() ? "" : ", ", each.collector);
  }
  return fmt::format("no capture has PC samples (captures: {}), so {}() was not measured. Fix: "
                     "sample with Proton's pcsampling mode (docs/collectors.md, 'PC sampling')",
                     collectors.empty() ? "none" : collectors, to_string(quantity));
}

}  // namespace

pc_sample_argument split_pc_sample_argument(check_quantity quantity, std::string_view argument) {
  const bool stalls = declaration_of(quantity).argument_names_reason;
  const std::vector<std::string_view> parts = split_pc_sample_parts(argument);
  const std::size_t fewest = stalls ? 2 : 1;
  if (parts.size() < fewest || parts.size() > fewest + 1) {
    throw std::invalid_argument(
        stalls ? fmt::format("KERNEL, REASON or KERNEL, REASON, LINE inside stalls(...), found "
                             "{} part(s) (a comma inside a regex goes in [], {{}} or \\,)",
                             parts.size())
               : fmt::format("KERNEL or KERNEL, LINE inside samples(...), found {} parts (a "
                             "comma inside a regex goes in [], {{}} or \\,)",
                             parts.size()));
  }
  for (const std::string_view part : parts) {
    if (part.empty()) {
      throw std::invalid_argument(
          fmt::format("a regex in every comma-separated part of {}(...)", to_string(quantity)));
    }
  }
  pc_sample_argument out{parts[0], {}, {}};
  if (stalls) out.reason = parts[1];
  if (parts.size() > fewest) out.line = parts[fewest];
  return out;
}

void require_pc_sample_argument(check_quantity quantity, std::string_view argument) {
  const pc_sample_argument parts = split_pc_sample_argument(quantity, argument);
  for (const std::string_view part : {parts.kernel, parts.reason, parts.line}) {
    if (part.empty()) continue;
    try {
      (void)name_regex::compile(part);
    } catch (const std::invalid_argument& error) {
      throw std::invalid_argument(
          fmt::format("a valid regex (RE2 syntax), but '{}' is not: {}", part, error.what()));
    }
  }
}

pc_sample_measure pc_sample_quantity(const std::vector<capture>& captures, check_quantity quantity,
                                     std::string_view argument) {
  const capture* source = first_with_samples(captures);
  if (source == nullptr) return {std::nullopt, no_samples_reason(captures, quantity)};
  const pc_sample_argument parts = split_pc_sample_argument(quantity, argument);
  const name_regex kernel = name_regex::compile(parts.kernel);
  const std::optional<name_regex> line =
      parts.line.empty() ? std::nullopt : std::optional(name_regex::compile(parts.line));
  const std::optional<name_regex> reason =
      parts.reason.empty() ? std::nullopt : std::optional(name_regex::compile(parts.reason));

  std::set<std::string> kernels_there;
  std::set<std::string> kernels_matched;
  std::set<std::string> lines_there;  // of the matched kernels
  std::set<std::string> reasons_there;
  std::size_t lines_matched = 0;
  bool reason_matched = false;
  std::string refused;  // why the sum was not taken
  const std::string where = fmt::format("{}({}) in the {} capture", to_string(quantity), argument,
                                        source->collector);
  std::uint64_t total = 0;
  for (const auto& sampled : source->pc_samples) {
    kernels_there.insert(sampled.kernel);
    if (!kernel.search(sampled.kernel)) continue;
    kernels_matched.insert(sampled.kernel);
    lines_there.insert(sampled.location);
    for (const auto& stall : sampled.stalls) {
      reasons_there.insert(stall.reason);
      if (reason && reason->search(stall.reason)) reason_matched = true;
    }
    if (line && !line->search(sampled.location)) continue;
    ++lines_matched;
    if (!reason) {
      add_samples_checked(total, sampled.samples, where, refused);
      continue;
    }
    for (const auto& stall : sampled.stalls) {
      if (reason->search(stall.reason)) add_samples_checked(total, stall.samples, where, refused);
    }
  }
  if (kernels_matched.empty()) {
    return no_pc_sample_match(fmt::format("no kernel with PC samples matches '{}'", parts.kernel),
                              std::move(kernels_there), parts.kernel);
  }
  if (lines_matched == 0) {
    return no_pc_sample_match(
        fmt::format("no sampled line of the kernel(s) matching '{}' matches '{}'", parts.kernel,
                    parts.line),
        std::move(lines_there), parts.line);
  }
  // A reason present elsewhere in the kernel but not on the selected lines is a measured 0.
  if (reason && !reason_matched) {
    return no_pc_sample_match(
        fmt::format("no stall reason of the kernel(s) matching '{}' matches '{}'", parts.kernel,
                    parts.reason),
        std::move(reasons_there), parts.reason);
  }
  if (!refused.empty()) return {std::nullopt, std::move(refused)};
  return {static_cast<double>(total),
          summed_over_lines(kernels_matched.size(), lines_matched, line.has_value())};
}

std::string pc_sample_context(const capture& source) {
  std::vector<const pc_sample_line*> ordered;
  for (const auto& line : source.pc_samples) ordered.push_back(&line);
  std::stable_sort(ordered.begin(), ordered.end(),
                   [](const auto* a, const auto* b) { return a->samples > b->samples; });
  std::string out = fmt::format("  lines with the most PC samples ({}):\n", source.collector);
  for (std::size_t i = 0; i < ordered.size() && i < sampled_context_rows; ++i) {
    const pc_sample_line& line = *ordered[i];
    const auto top = std::max_element(
        line.stalls.begin(), line.stalls.end(),
        [](const pc_stall& a, const pc_stall& b) { return a.samples < b.samples; });
    out += fmt::format("    {} {}  samples {}  stalled {}{}\n", line.kernel, line.location,
                       line.samples, line.stalled,
                       top == line.stalls.end()
                           ? std::string()
                           : fmt::format("  top stall {} {}", top->reason, top->samples));
  }
  return out;
}

}  // namespace aorta::detail
