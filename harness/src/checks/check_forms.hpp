// The function forms of the check grammar (aorta/check.hpp): their names, what each measures,
// whether the argument is a regex, and the example an error message shows.
#pragma once

#include "aorta/check.hpp"

#include <array>
#include <string>
#include <string_view>

namespace aorta::detail {

struct function_form {
  std::string_view name;
  check_quantity quantity;
  bool takes_regex;
  std::string_view example;
};

inline constexpr std::array<function_form, 12> function_forms{{
    {"count", check_quantity::count, true, "count(sgemm_tiled) == 20"},
    {"time_ms", check_quantity::time_ms, true, "time_ms(^gemm) < 5"},
    {"cycles", check_quantity::cycles, false, "cycles(expensive) / cycles(cheap) > 10"},
    {"normalized_cycles", check_quantity::normalized_cycles, false,
     "normalized_cycles(expensive) / normalized_cycles(cheap) > 10"},
    {"ir", check_quantity::ir, true, "ir(^expensive$) / ir(^cheap$) > 10"},
    {"self_ir", check_quantity::self_ir, true, "self_ir(^parse_row$) < 2e6"},
    {"calls", check_quantity::calls, true, "calls(^parse_row$) == 1000"},
    {"count_errors", check_quantity::errors, true, "count_errors(fill_kernel) == 0"},
    {"count_warnings", check_quantity::warnings, true, "count_warnings(Race) == 0"},
    {"ncu", check_quantity::ncu, false, "ncu(smsp__inst_executed.sum, sgemm_tiled) <= baseline"},
    {"samples", check_quantity::samples, false,
     "samples(^matmul_kernel$, matmul\\.py:63$) / samples(^matmul_kernel$) > 0.15"},
    {"stalls", check_quantity::stalls, false,
     "stalls(^matmul_kernel$, long_scoreboard, matmul\\.py:60$) > 20000"},
}};

// The two forms that are not a function call: a plain metric (`NAME OP N`) and
// `top_kernel ~ REGEX`.
inline constexpr check_quantity plain_metric_form = check_quantity::metric;
inline constexpr check_quantity top_kernel_form = check_quantity::top_kernel;

// The form spelt `name`, or nullptr.
[[nodiscard]] const function_form* find_form(std::string_view name) noexcept;

// "count(, time_ms(, ..., count_errors(": every form, for "expected one of ..." messages.
[[nodiscard]] std::string form_list();

}  // namespace aorta::detail
