#include "cells/confound_summary.hpp"

#include "metrics/number_format.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <vector>

namespace aorta::detail {
namespace {

constexpr std::size_t named_movers = 3;

std::string signed_percent(double ratio) {
  return fmt::format("{:+.1f}%", (ratio - 1.0) * 100.0);
}

std::string threshold_percent(double threshold) {
  return fmt::format("{:g}%", std::round((threshold - 1.0) * 1000.0) / 10.0);
}

// "expensive(unsigned long)" of "ir(expensive(unsigned long))"; other labels whole.
std::string where(const confound_row& row) {
  for (const std::string_view kind : {"ir(", "time_ms("}) {
    if (row.quantity.starts_with(kind) && row.quantity.ends_with(')')) {
      return row.quantity.substr(kind.size(), row.quantity.size() - kind.size() - 1);
    }
  }
  return row.quantity;
}

const family_total* family_of(const confound_row& row, const cell_change& change) {
  const std::string_view family = row.quantity.starts_with("ir(")        ? "Ir"
                                  : row.quantity.starts_with("time_ms(") ? "kernel time"
                                                                         : "";
  for (const auto& total : change.totals) {
    if (total.family == family) return &total;
  }
  return nullptr;
}

// "10.0% slower [+9.6%, +10.4%]" of the family's total when the row has a share of it, else the
// row's own move.
std::string amount(const confound_row& row, const cell_change& change) {
  const family_total* total = (row.share || row.self_share) ? family_of(row, change) : nullptr;
  const double ratio = total ? total->ratio : row.ratio.value_or(1.0);
  const auto low = total ? total->low : row.ratio_low;
  const auto high = total ? total->high : row.ratio_high;
  std::string text =
      fmt::format("{:.1f}% {}", std::fabs(ratio - 1.0) * 100.0, ratio >= 1.0 ? "slower" : "faster");
  if (low && high) text += fmt::format(" [{}, {}]", signed_percent(*low), signed_percent(*high));
  text += fmt::format(" than {}", change.reference);
  if (total) {
    text += fmt::format(" (total {}{})", total->family, total->exact ? ", exact" : "");
  } else if (row.exact) {
    text += " (exact)";
  }
  return text;
}

// " (+9.5% itself)" when the amount is the family's total: a kernel 10% slower among heavier
// unchanged ones moves the total by less, and the sentence must not read as the kernel's own move.
std::string own_move(const confound_row& row, const cell_change& change) {
  if (!(row.share || row.self_share) || family_of(row, change) == nullptr || !row.ratio) return {};
  return fmt::format(" ({} itself)", signed_percent(*row.ratio));
}

std::string share_text(const confound_row& row) {
  const auto share = row.self_share ? row.self_share : row.share;
  if (!share) return {};
  return fmt::format(", {:.0f}% of the change{}", whole_percent(*share),
                     row.self_share ? " (self)" : "");
}

bool is_caller(const confound_row& row) {
  return row.self_share && row.share && std::fabs(*row.self_share) < 0.05 &&
         std::fabs(*row.share) > 0.5;
}

// count(K) and ncu(metric, K) of the leading kernel K: the evidence its words already cite.
bool evidence_of(const confound_row& row, const std::string& kernel) {
  return row.quantity == "count(" + kernel + ")" ||
         (row.quantity.starts_with("ncu(") && row.quantity.ends_with(", " + kernel + ")"));
}

std::string rest(std::span<const confound_row> rows, std::size_t skip) {
  const std::string lead = skip < rows.size() ? where(rows[skip]) : std::string();
  std::vector<std::string> movers;
  std::size_t more_movers = 0;
  std::size_t folded = 0;
  std::size_t same = 0;
  double widest = 0.0;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const auto& row = rows[i];
    if (i == skip || (!lead.empty() && evidence_of(row, lead))) continue;
    if (row.system_frame) {
      ++folded;
    } else if (row.verdict == confound_verdict::same) {
      ++same;
      if (row.ratio) widest = std::max(widest, std::fabs(*row.ratio - 1.0));
    } else if (movers.size() < named_movers) {
      movers.push_back(where(row) + (is_caller(row) ? " (caller, self 0%)" : ""));
    } else {
      ++more_movers;
    }
  }
  std::string text;
  if (!movers.empty()) {
    text += fmt::format("; also moved: {}{}", fmt::join(movers, ", "),
                        more_movers > 0 ? fmt::format(" and {} more", more_movers) : std::string());
  }
  if (same > 0) {
    text +=
        fmt::format("; {} other row(s) within ±{:.1f}%", same, std::ceil(widest * 1000.0) / 10.0);
  }
  if (folded > 0) text += fmt::format("; {} loader/libc row(s) folded", folded);
  return text;
}

}  // namespace

std::string change_sentence(std::span<const confound_row> rows, const cell_change& change,
                            double threshold) {
  if (rows.empty()) return {};
  const auto lead =
      std::find_if(rows.begin(), rows.end(), [](const confound_row& r) { return !r.system_frame; });
  const std::size_t index = lead == rows.end() ? 0 : static_cast<std::size_t>(lead - rows.begin());
  const confound_row& row = rows[index];
  const std::string& cell = change.cell;
  const std::string& reference = change.reference;
  switch (row.verdict) {
  case confound_verdict::slower:
  case confound_verdict::faster:
    return fmt::format("{} is {} in {}{}{}{}{}", cell, amount(row, change), where(row),
                       own_move(row, change), share_text(row),
                       row.work.empty() ? "" : ", " + row.work, rest(rows, index));
  case confound_verdict::ambiguous:
    return fmt::format("{} may be {} in {}: beyond the threshold {} in the medians, not "
                       "shown by the test ({}){}",
                       cell, amount(row, change), where(row), threshold_percent(threshold),
                       row.evidence, rest(rows, index));
  case confound_verdict::unknown:
    return fmt::format("{} against {}: UNKNOWN{}: {}{}", cell, reference,
                       row.quantity == "(all)" ? "" : " in " + row.quantity, row.evidence,
                       rest(rows, index));
  case confound_verdict::same: break;
  }
  std::string totals;
  for (const auto& total : change.totals) {
    totals += fmt::format("; total {} {}", total.family, signed_percent(total.ratio));
    if (total.low && total.high) {
      totals += fmt::format(" [{}, {}]", signed_percent(*total.low), signed_percent(*total.high));
    }
  }
  return fmt::format("{} is SAME as {} within the threshold {}{}{}", cell, reference,
                     threshold_percent(threshold), rest(rows, rows.size()), totals);
}

double whole_percent(double share) {
  const double percent = std::round(share * 100.0);
  return percent == 0.0 ? 0.0 : percent;
}

std::string within_threshold_note(const confound_row& row, double threshold, double alpha) {
  if (row.verdict != confound_verdict::same || !row.ratio) return {};
  const bool shown =
      row.exact ? std::fabs(*row.ratio - 1.0) >= 0.001 : (row.p_value && *row.p_value < alpha);
  if (!shown) return {};
  return fmt::format("{}, within {}", signed_percent(*row.ratio), threshold_percent(threshold));
}

}  // namespace aorta::detail
