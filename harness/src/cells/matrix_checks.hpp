// Cell-addressed checks (`time_ms(gemm)@head / time_ms(gemm)@base <= 1.05`, docs/checks-and-
// metrics.md): judged once per sweep, after every cell ran, each `term@cell` being the median over
// that cell's measured trials of the term's per-trial value.
#pragma once

#include "aorta/check.hpp"
#include "cells/confound.hpp"
#include "recipe/cell_plan.hpp"

#include <nlohmann/json.hpp>

#include <string>
#include <string_view>
#include <vector>

namespace aorta::detail {

// Why `check` cannot be judged over these cells ("" when it can): there are none, or a cell it
// names is not one of them (the message lists them and says how to fix it).
[[nodiscard]] std::string unknown_cell_reason(const check_expression& check,
                                              const std::vector<std::string>& cells);

// The check over the cells' trials. A term whose cell has no trial that measured it (every trial
// failed before a capture, or was skipped) fails the check as unknown, naming the cell.
[[nodiscard]] check_result judge_matrix_check(const check_expression& check,
                                              const std::vector<cell_plan>& cells,
                                              const std::vector<cell_trials>& trials);

[[nodiscard]] nlohmann::json matrix_checks_json(const std::vector<check_result>& results);

}  // namespace aorta::detail
