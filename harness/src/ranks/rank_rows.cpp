#include "ranks/rank_rows.hpp"

#include <optional>

namespace aorta::detail {
namespace {

rank_row summarize_rank(const rank_captures& rank, const capture& got) {
  rank_row row;
  row.rank = rank.rank;
  row.host = rank.host;
  row.collector = got.collector;
  row.empty = got.empty();
  row.launches = 0;
  for (const auto& kernel : got.kernels) {
    row.time_ms += kernel.total_ns / 1e6;
    row.launches = row.launches && kernel.launches
                       ? std::optional(*row.launches + *kernel.launches)
                       : std::nullopt;
  }
  if (!got.kernels.empty()) row.top = got.kernels.front().name;
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
