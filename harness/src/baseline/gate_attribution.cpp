#include "baseline/gate_attribution.hpp"

#include "baseline/gate_explain.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <string_view>

namespace aorta::detail {
namespace {

bool share_measured(const gate_row& row) {
  return !row.base.empty() && !row.fresh.empty() && std::isfinite(row.base_median) &&
         std::isfinite(row.fresh_median);
}

std::string_view share_family_of(const gate_row& row) {
  const std::string_view label = row.label;
  if (!label.ends_with(')')) return {};
  if (label.starts_with("time_ms(")) return "time_ms(";
  if (label.starts_with("ir(")) return "ir(";
  return {};
}

struct gate_family_change {
  std::string_view words;  // "kernel time", "Ir"
  double base = 0.0;
  double fresh = 0.0;
};

std::optional<gate_family_change> family_total_change(const std::vector<gate_row>& rows,
                                                      const gate_row& of) {
  const std::string_view family = share_family_of(of);
  if (family.empty()) return std::nullopt;
  gate_family_change total{family == "ir(" ? "Ir" : "kernel time"};
  const gate_row* outermost = nullptr;
  for (const auto& row : rows) {
    if (row.test != of.test || !share_measured(row) || share_family_of(row) != family) continue;
    if (family == "time_ms(") {
      total.base += row.base_median;
      total.fresh += judged_fresh_level(row);
    } else if (outermost == nullptr || row.base_median > outermost->base_median) {
      outermost = &row;
    }
  }
  if (outermost != nullptr) {
    total.base = outermost->base_median;
    total.fresh = outermost->fresh_median;
  }
  if (total.fresh == total.base || total.base <= 0.0) return std::nullopt;
  return total;
}

bool summary_moved(const gate_row& row) {
  return row.verdict != gate_verdict::same && row.verdict != gate_verdict::unknown;
}

std::string summary_delta_words(const gate_row& row) {
  if (!row.delta) return {};
  if (std::isinf(*row.delta)) return *row.delta > 0 ? " +inf" : " -inf";
  return fmt::format(" {:+.2f}%", *row.delta * 100.0);
}

// Empty when nothing of `test` moved and moved_only is set.
std::string gate_test_sentence(const std::vector<gate_row>& rows, const std::string& test,
                               bool moved_only) {
  const gate_row* lead = nullptr;
  std::size_t total = 0;
  std::size_t others = 0;
  const gate_row* largest_same = nullptr;
  for (const auto& row : rows) {
    if (row.test != test) continue;
    ++total;
    if (summary_moved(row) && !row.system_frame && lead == nullptr) {
      lead = &row;
    } else if (summary_moved(row)) {
      ++others;
    } else if (row.verdict == gate_verdict::same && row.delta && std::isfinite(*row.delta) &&
               !row.system_frame &&
               (largest_same == nullptr ||
                std::fabs(*row.delta) > std::fabs(*largest_same->delta))) {
      largest_same = &row;
    }
  }
  if (lead == nullptr) {
    // Every moved row is a loader/libc frame (or none moved): name the count, not a culprit.
    if (others > 0) {
      return fmt::format("{}: {} loader/libc row(s) moved, no row of the program", test, others);
    }
    if (moved_only) return {};
    std::string text = fmt::format("{}: all {} row(s) SAME", test, total);
    if (largest_same != nullptr && *largest_same->delta != 0.0) {
      text += fmt::format(", largest move {}{}", largest_same->label,
                          summary_delta_words(*largest_same));
    }
    return text;
  }
  std::string text = fmt::format("{}: {} {}{}", test, lead->label, verdict_label(*lead),
                                 summary_delta_words(*lead));
  if (!lead->bound_text.empty()) text += fmt::format(" ({})", lead->bound_text);
  if (const auto share = gate_share_text(rows, *lead); !share.empty()) text += ", " + share;
  if (const auto why = gate_work_words(rows, *lead); !why.empty()) text += ", " + why;
  if (others > 0) text += fmt::format("; {} other row(s) moved", others);
  return text;
}

}  // namespace

std::optional<double> gate_share(const std::vector<gate_row>& rows, const gate_row& row) {
  if (!share_measured(row)) return std::nullopt;
  const auto total = family_total_change(rows, row);
  if (!total) return std::nullopt;
  return (judged_fresh_level(row) - row.base_median) / (total->fresh - total->base);
}

std::string gate_share_text(const std::vector<gate_row>& rows, const gate_row& row) {
  const auto share = gate_share(rows, row);
  if (!share) return {};
  const auto total = family_total_change(rows, row);
  return fmt::format("{:.0f}% of the test's {} change ({:+.1f}%)", *share * 100.0, total->words,
                     (total->fresh / total->base - 1.0) * 100.0);
}

std::vector<std::string> gate_summaries(const std::vector<gate_row>& rows, bool moved_only) {
  std::vector<std::string> tests;
  for (const auto& row : rows) {
    if (std::find(tests.begin(), tests.end(), row.test) == tests.end()) tests.push_back(row.test);
  }
  std::vector<std::string> sentences;
  for (const auto& test : tests) {
    if (auto sentence = gate_test_sentence(rows, test, moved_only); !sentence.empty()) {
      sentences.push_back(std::move(sentence));
    }
  }
  return sentences;
}

}  // namespace aorta::detail
