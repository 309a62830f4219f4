// The per-rank part of the regression gate (docs/regression-gate.md, "Ranks"): every rank of a
// multi-rank test judged against its own baseline with the rows the sum gets, each row's label
// naming the rank, its host and its card.
#pragma once

#include "baseline/gate_rule.hpp"
#include "baseline/measured_series.hpp"

#include <functional>
#include <string>
#include <vector>

namespace aorta::detail {

using row_builder =
    std::function<std::vector<gate_row>(const measured_test& base, const measured_test& fresh)>;

// "rank 2 (node7, GPU-5d3c...)", "rank 2 (node7)", "rank 2": where the rank ran in the newest
// trial that has it (the fresh side first, then the baseline's).
[[nodiscard]] std::string rank_label(int rank, const measured_test& base,
                                     const measured_test& fresh);

// Rows for every rank either side has, when both sides have ranks and one has two or more: `build`
// on the rank's own series, each label prefixed "rank N (...): ". A rank on one side only is one
// row that cannot be judged (unknown: a gated run fails on it), naming the side it is missing from.
[[nodiscard]] std::vector<gate_row>
rank_rows_of(const measured_test& base, const measured_test& fresh, const row_builder& build);

}  // namespace aorta::detail
