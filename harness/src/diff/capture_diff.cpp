#include "diff/capture_diff.hpp"

#include "diff/frame_path.hpp"
#include "metrics/display_names.hpp"
#include "metrics/number_format.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>

namespace aorta::detail {
namespace {

constexpr std::string_view kernel_family = "kernel time (ms)";
constexpr std::string_view ir_family = "Ir";
constexpr std::string_view scope_family = "scope cycles";

struct side_values {
  double value = 0.0;
  std::optional<double> self;
};

using side_values_by_name = std::map<std::string, side_values>;

// "main > step > gemm": the frames above a placed kernel, outermost first, then the kernel.
std::string placed_name(const capture& source, const placed_kernel& placed) {
  std::string text;
  for (const auto name : frames_above(source, placed.frame)) text += fmt::format("{} > ", name);
  return text + placed.kernel.name.str();
}

// By place in the tree when both captures have one (the same kernel under two scopes is two
// rows, so the row that moved names where), else by kernel name.
side_values_by_name kernels_of(const capture& source, bool by_place) {
  side_values_by_name out;
  if (by_place) {
    for (const auto& placed : source.placements) {
      out[placed_name(source, placed)].value += placed.kernel.total_ns / 1e6;
    }
    return out;
  }
  for (const auto& kernel : source.kernels) out[kernel.name.str()].value += kernel.total_ns / 1e6;
  return out;
}

side_values_by_name functions_of(const capture& source) {
  side_values_by_name out;
  for (const auto& function : source.functions) {
    auto& entry = out[function.name];
    entry.value += static_cast<double>(function.inclusive_ir);
    entry.self = entry.self.value_or(0.0) + static_cast<double>(function.self_ir);
  }
  return out;
}

side_values_by_name scopes_of(const capture& source) {
  side_values_by_name out;
  for (const auto& scope : source.scopes) {
    out[scope.kernel.empty() ? scope.scope : scope.kernel + "/" + scope.scope].value +=
        scope.cycles;
  }
  return out;
}

// A share as a whole percent, never "-0%" for a share a hair below zero.
double diff_whole_percent(double share) {
  const double percent = std::round(share * 100.0);
  return percent == 0.0 ? 0.0 : percent;
}

std::optional<double> diff_share_of(double a, double b, const diff_family& family) {
  const double change = family.total_b - family.total_a;
  if (!family.has_total || change == 0.0 || !std::isfinite(change)) return std::nullopt;
  return (b - a) / change;
}

void add_family(capture_diff& diff, std::string_view kind, std::string_view family_name,
                const side_values_by_name& a, const side_values_by_name& b, std::optional<diff_family> family) {
  if (a.empty() && b.empty()) return;
  if (!family) family = diff_family{std::string(family_name), 0.0, 0.0, false};
  std::map<std::string, std::pair<const side_values*, const side_values*>> names;
  for (const auto& [name, values] : a) names[name].first = &values;
  for (const auto& [name, values] : b) names[name].second = &values;
  for (const auto& [name, sides] : names) {
    diff_row row;
    row.kind = std::string(kind);
    row.name = name;
    if (sides.first) row.a = sides.first->value;
    if (sides.second) row.b = sides.second->value;
    if (sides.first) row.a_self = sides.first->self;
    if (sides.second) row.b_self = sides.second->self;
    row.system_frame = kind == "function" && is_system_frame(name);
    row.share = diff_share_of(row.a.value_or(0.0), row.b.value_or(0.0), *family);
    if (row.a_self || row.b_self) {
      row.self_share = diff_share_of(row.a_self.value_or(0.0), row.b_self.value_or(0.0), *family);
    }
    diff.rows.push_back(std::move(row));
  }
  diff.families.push_back(*family);
}

// In whole percent: a share a hair above another (a libc helper's 0.01% against main's 0%) must
// not outrank the next key.
double diff_contribution(const diff_row& row) {
  if (row.self_share) return std::round(std::fabs(*row.self_share) * 100.0);
  if (row.share) return std::round(std::fabs(*row.share) * 100.0);
  return -1.0;
}

// A caller's inclusive share: among rows that carry none of the change themselves, the one whose
// subtree holds it comes before a function that merely moved by a larger fraction of a tiny cost.
double diff_inclusive_share(const diff_row& row) {
  return row.share ? std::fabs(*row.share) : -1.0;
}

double diff_relative_move(const diff_row& row) {
  const double a = row.a.value_or(0.0);
  const double b = row.b.value_or(0.0);
  if (a <= 0.0) return b > 0.0 ? std::numeric_limits<double>::infinity() : 0.0;
  return std::fabs(b / a - 1.0);
}

bool unchanged(const diff_row& row) {
  return row.a && row.b && *row.a == *row.b;
}

std::string value_text(const std::optional<double>& value) {
  return value ? format_number(*value) : std::string("-");
}

std::string diff_change_text(const diff_row& row) {
  if (!row.a) return "new";
  if (!row.b) return "gone";
  if (*row.a == 0.0) return *row.b == 0.0 ? "+0.00%" : "+inf";
  return fmt::format("{:+.2f}%", (*row.b / *row.a - 1.0) * 100.0);
}

std::string diff_share_text(const diff_row& row) {
  if (row.self_share) return fmt::format("{:.0f}% self", diff_whole_percent(*row.self_share));
  if (row.share) return fmt::format("{:.0f}%", diff_whole_percent(*row.share));
  return "-";
}

}  // namespace

capture_diff diff_captures(const capture& a, const capture& b) {
  capture_diff diff;
  const bool by_place = !a.placements.empty() && !b.placements.empty();
  const auto kernels_a = kernels_of(a, by_place);
  const auto kernels_b = kernels_of(b, by_place);
  diff_family kernels{std::string(kernel_family), 0.0, 0.0, true};
  for (const auto& kernel : a.kernels) kernels.total_a += kernel.total_ns / 1e6;
  for (const auto& kernel : b.kernels) kernels.total_b += kernel.total_ns / 1e6;
  add_family(diff, "kernel", kernel_family, kernels_a, kernels_b, kernels);
  // The program's total Ir is its outermost frame's inclusive Ir: the largest one.
  diff_family ir{std::string(ir_family), 0.0, 0.0, true};
  for (const auto& f : a.functions)
    ir.total_a = std::max(ir.total_a, static_cast<double>(f.inclusive_ir));
  for (const auto& f : b.functions)
    ir.total_b = std::max(ir.total_b, static_cast<double>(f.inclusive_ir));
  add_family(diff, "function", ir_family, functions_of(a), functions_of(b), ir);
  add_family(diff, "scope", scope_family, scopes_of(a), scopes_of(b), std::nullopt);
  std::stable_sort(diff.rows.begin(), diff.rows.end(), [](const diff_row& x, const diff_row& y) {
    if (unchanged(x) != unchanged(y)) return !unchanged(x);
    if (x.system_frame != y.system_frame) return !x.system_frame;
    if (diff_contribution(x) != diff_contribution(y))
      return diff_contribution(x) > diff_contribution(y);
    if (diff_contribution(x) <= 0.0 && diff_inclusive_share(x) != diff_inclusive_share(y)) {
      return diff_inclusive_share(x) > diff_inclusive_share(y);
    }
    return diff_relative_move(x) > diff_relative_move(y);
  });
  return diff;
}

std::string format_capture_diff(const capture_diff& diff, bool all) {
  std::string out;
  for (const auto& family : diff.families) {
    if (family.has_total) {
      out +=
          fmt::format("total {}: {} -> {} ({})\n", family.name, format_number(family.total_a),
                      format_number(family.total_b),
                      family.total_a > 0.0
                          ? fmt::format("{:+.2f}%", (family.total_b / family.total_a - 1.0) * 100.0)
                          : std::string("no total in A"));
    }
  }
  std::vector<std::array<std::string, 6>> lines{{"kind", "name", "A", "B", "change", "share"}};
  std::size_t same = 0;
  std::vector<std::string> folded_moved;
  std::size_t folded = 0;
  for (const auto& row : diff.rows) {
    if (row.system_frame) {
      ++folded;
      if (!unchanged(row))
        folded_moved.push_back(fmt::format("{} {}", row.name, diff_change_text(row)));
      continue;
    }
    if (!all && unchanged(row)) {
      ++same;
      continue;
    }
    lines.push_back({row.kind, row.name, value_text(row.a), value_text(row.b),
                     diff_change_text(row), diff_share_text(row)});
  }
  std::array<std::size_t, 6> widths{};
  for (const auto& line : lines) {
    for (std::size_t i = 0; i < widths.size(); ++i) {
      widths[i] = std::max(widths[i], std::min<std::size_t>(line[i].size(), 80));
    }
  }
  if (lines.size() == 1) lines.clear();  // nothing moved: no empty table
  for (const auto& line : lines) {
    std::string text;
    for (std::size_t i = 0; i < widths.size(); ++i) {
      text += i + 1 == widths.size() ? line[i] : fmt::format("{:<{}}  ", line[i], widths[i]);
    }
    out += text + "\n";
  }
  if (same > 0) out += fmt::format("({} row(s) unchanged)\n", same);
  if (folded > 0) {
    out += fmt::format("({} loader/libc row(s) folded{})\n", folded,
                       folded_moved.empty() ? std::string(", all unchanged")
                                            : fmt::format(", {} moved: {}", folded_moved.size(),
                                                          folded_moved.front()));
  }
  return out;
}

}  // namespace aorta::detail
