#include "baseline/gate_explain.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cmath>
#include <string_view>

namespace aorta::detail {
namespace {

// Within 1%: a count or instruction total that moved less is the same work (as the cells' rule).
constexpr double gate_unchanged_counter = 0.01;

const gate_row* gate_row_named(const std::vector<gate_row>& rows, const gate_row& of,
                               const std::string& label) {
  for (const auto& row : rows) {
    if (row.test == of.test && row.label == label && !row.base.empty() && !row.fresh.empty() &&
        row.base_median > 0.0) {
      return &row;
    }
  }
  return nullptr;
}

double median_ratio(const gate_row& row) {
  return row.fresh_median / row.base_median;
}

}  // namespace

std::string gate_work_words(const std::vector<gate_row>& rows, const gate_row& row) {
  if (row.verdict == gate_verdict::same || row.verdict == gate_verdict::unknown || row.exact ||
      row.base.empty() || row.fresh.empty() || row.base_median <= 0.0) {
    return {};
  }
  const std::string_view label = row.label;
  std::string_view kernel;
  for (const std::string_view prefix : {"time_ms(", "cycles("}) {
    if (label.starts_with(prefix) && label.ends_with(')')) {
      kernel = label.substr(prefix.size(), label.size() - prefix.size() - 1);
    }
  }
  if (kernel.empty()) return {};
  std::vector<std::string> changed;
  std::vector<std::string> unchanged;
  bool counted = false;
  if (const auto* launches = gate_row_named(rows, row, fmt::format("count({})", kernel))) {
    const std::string text =
        fmt::format("launches {} -> {}", launches->base_median, launches->fresh_median);
    (std::fabs(median_ratio(*launches) - 1.0) >= gate_unchanged_counter ? changed : unchanged)
        .push_back(text);
  }
  const std::pair<std::string_view, std::string_view> counters[] = {
      {"smsp__inst_executed.sum", "instructions"},
      {"dram__bytes.sum", "DRAM bytes"},
      {"lts__t_bytes.sum", "L2 bytes"}};
  for (const auto& [metric, words] : counters) {
    const auto* found = gate_row_named(rows, row, fmt::format("ncu({}, {})", metric, kernel));
    if (found == nullptr) continue;
    counted = counted || metric == counters[0].first;
    const std::string text =
        fmt::format("{} {:+.2f}%", words, (median_ratio(*found) - 1.0) * 100.0);
    (std::fabs(median_ratio(*found) - 1.0) >= gate_unchanged_counter ? changed : unchanged)
        .push_back(text);
  }
  const bool slower = judged_fresh_level(row) >= row.base_median;
  if (!changed.empty()) {
    return fmt::format("{} ({})", slower ? "more work" : "less work", fmt::join(changed, ", "));
  }
  if (unchanged.empty()) return {};
  if (counted) {
    return fmt::format("same work, {} ({})", slower ? "slower" : "faster",
                       fmt::join(unchanged, ", "));
  }
  return fmt::format("same launches, {} ({}); no instruction counter tells more work from the "
                     "same work {}",
                     slower ? "slower" : "faster", fmt::join(unchanged, ", "),
                     slower ? "slower" : "faster");
}

}  // namespace aorta::detail
