// The ncu(METRIC, REGEX) check form: a hardware counter (collect.ncu.metrics) summed over the
// launches of the kernels whose name matches, read from a capture per trial or from the
// `ncu_counter.<metric>/<kernel>` metrics a baseline keeps.
#pragma once

#include "aorta/capture.hpp"
#include "aorta/check.hpp"
#include "aorta/recipe.hpp"

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace aorta::detail {

struct ncu_argument {
  std::string_view metric;   // ncu's name, before the first comma
  std::string_view kernels;  // the regex, after it
};

// "smsp__inst_executed.sum, sgemm_tiled" -> {smsp__inst_executed.sum, sgemm_tiled}. The metric
// comes first: an ncu name never holds a comma and a regex may ({1,3}), and a gate table that cuts
// a long kernel name still shows which counter moved. nullopt when there is no comma or either
// side is blank.
[[nodiscard]] std::optional<ncu_argument> split_ncu_argument(std::string_view argument);

struct counter_sum {
  std::optional<double> value;
  std::string why;                 // set when value is nullopt
  bool no_kernel_matched = false;  // the counter was collected, but for no matching kernel
};

// The sum of `metric` over the capture's kernels that `kernels` matches.
[[nodiscard]] counter_sum ncu_counter_in_capture(const std::vector<capture>& captures,
                                                 std::string_view argument,
                                                 const name_regex& kernels);

// The same from a trial's `ncu_counter.<metric>/<kernel>` metrics.
[[nodiscard]] counter_sum ncu_counter_in_metrics(const std::map<std::string, double>& metrics,
                                                 std::string_view argument,
                                                 const name_regex& kernels);

// Spelt like an ncu metric: letters, digits, '_' and '.', with the "__" of unit__counter[.rollup]
// (the reader tells the metric columns of a raw page by it; the grammar's ncu() and the ncu
// collector's `metrics:` both require it).
[[nodiscard]] bool is_ncu_metric_name(std::string_view metric);

// Throws recipe_error (exit 64) when a check reads an ncu counter (`ncu(M, K)` or the metric
// `ncu_counter.M/K`) that `collected` (the ncu collector's parsed metrics; nullopt when the recipe
// has no ncu collector) does not list, naming the key to add: otherwise the check would only fail
// after every trial had run. The ncu collector calls it (collector_base::require_for_checks).
void require_collected_ncu_metrics(const recipe& spec, const std::vector<check_expression>& checks,
                                   const std::optional<std::vector<std::string>>& collected);

}  // namespace aorta::detail
