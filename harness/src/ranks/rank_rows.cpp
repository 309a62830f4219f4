#include "ranks/rank_rows.hpp"

#include "aorta/metrics.hpp"

#include <cmath>
#include <optional>

namespace aorta::detail {
namespace {

// The rank's own series, as a baseline keeps the sum's: numeric metrics that are finite and not
// negative (a baseline refuses anything else), kernels by name with rows of one name summed.
void add_rank_series(const capture& got, rank_row& row) {
  // Deferred: the values alone; the kernel rows are copied below by name, once.
  for (const auto& [name, value] : compute_metrics(got, kernel_rows::deferred).values) {
    const auto number = numeric_value(value);
    if (number && std::isfinite(*number) && *number >= 0) row.metrics[name] = *number;
  }
  for (const auto& kernel : got.kernels) {
    auto& [launches, time_ms] = row.kernels[kernel.name];
    const bool first = time_ms == 0.0 && !launches;
    time_ms += kernel.total_ns / 1e6;
    launches = (first || launches) && kernel.launches
                   ? std::optional(launches.value_or(0) + *kernel.launches)
                   : std::nullopt;
  }
}

rank_row summarize_rank(const rank_captures& rank, const capture& got) {
  rank_row row;
  row.rank = rank.rank;
  row.host = rank.host;
  row.collector = got.collector;
  row.card = rank.card;
  row.card_source = rank.card_source;
  row.empty = got.empty();
  row.launches = 0;
  for (const auto& kernel : got.kernels) {
    row.time_ms += kernel.total_ns / 1e6;
    row.launches = row.launches && kernel.launches
                       ? std::optional(*row.launches + *kernel.launches)
                       : std::nullopt;
  }
  if (!got.kernels.empty()) row.top = got.kernels.front().name;
  add_rank_series(got, row);
  if (!got.functions.empty()) {
    row.ir = got.functions.front().inclusive_ir;
    if (row.top.empty()) row.top = got.functions.front().name;
  }
  return row;
}

}  // namespace

std::vector<rank_row> rank_rows(const std::vector<rank_captures>& ranks) {
  std::vector<rank_row> rows;
  for (const auto& rank : ranks) {
    for (const auto& got : rank.captures) rows.push_back(summarize_rank(rank, got));
  }
  return rows;
}

}  // namespace aorta::detail
