// Check expressions: the one grammar used by recipes (`check:`), the CLI (`--check`) and CMake
// (`CHECK`).
//
//   METRIC OP NUMBER                     proton_kernel_count >= 60
//   count(REGEX) OP NUMBER               launches of the kernels whose name matches
//   time_ms(REGEX) OP NUMBER             total ms of the kernels whose name matches
//   cycles(SCOPE) OP NUMBER              cycles of a Proton instrumentation scope
//   normalized_cycles(SCOPE) OP NUMBER
//   ir(REGEX) OP NUMBER                  callgrind inclusive Ir of the one function that matches
//   self_ir(REGEX) OP NUMBER             its exclusive (self) Ir
//   calls(REGEX) OP NUMBER               how often it was called, summed over every call site
//   count_errors(REGEX) OP NUMBER        errors a checker (compute-sanitizer) reported whose kind
//                                        or kernel matches
//   count_warnings(REGEX) OP NUMBER      the same for the warnings it reported (racecheck hazards)
//   ncu(METRIC, REGEX) OP NUMBER         an ncu counter (collect.ncu.metrics, e.g.
//                                        smsp__inst_executed.sum) summed over the launches of the
//                                        kernels whose name matches
//   F(A) / F(B) OP NUMBER                a ratio, F any of the functions above (same F twice)
//   top_kernel ~ REGEX                   the hottest kernel's name matches
//   count(under(PATH)[, REGEX]) ...      count/time_ms of the kernels in one frame's subtree
//   top_kernel(under(PATH)) ~ REGEX      (aorta/scope_path.hpp; ratios take them on either side)
//   max_over_ranks(F(A)) OP NUMBER       F over each rank of a multi-rank trial, then the max,
//   min_over_ranks(F(A)) OP NUMBER       the min, or max/min (imbalance); F(A) may be a ratio
//   imbalance(F(A)) OP NUMBER            (rank_checks.hpp; docs/distributed.md)
//   straggler(F(A)) OP NUMBER            the largest rank / median of its peers
//   LHS OP baseline [+|- N%]             any numeric form above against the test's recorded
//                                        baseline (docs/regression-gate.md), judged over all
//                                        trials by `sweep run --baseline DIR`
//   F(A)? OP NUMBER                      a selector that matches nothing reads 0 instead of failing
//                                        the check as not measured (count() always reads 0)
//   TERM@CELL [/ TERM@CELL] OP NUMBER    a METRIC or F(A) of one cell of a recipe with cells: the
//                                        median over that cell's trials, judged once per sweep
//                                        after every cell ran (cells/matrix_checks.hpp); every
//                                        term of such a check names its cell
//
// OP is one of == != < <= > >=. METRIC is [A-Za-z_][A-Za-z0-9_./:-]*. NUMBER is a plain decimal
// number with optional sign, fraction and exponent. REGEX is RE2 syntax (aorta/name_regex.hpp)
// and *searched* in the name (grep semantics); anchor with ^...$ for an exact name. A SCOPE is an
// exact scope name, or `kernel/scope` when the name occurs in several kernels. Arguments may
// contain parentheses, commas, <>, and spaces: the closing parenthesis is found by a balanced scan
// that skips backslash-escaped characters and bracket expressions ([)] is one literal character).
#pragma once

#include "aorta/capture.hpp"
#include "aorta/metrics.hpp"
#include "aorta/name_regex.hpp"
#include "aorta/scope_path.hpp"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace aorta {

namespace detail {
class check_parser;
}

enum class compare_op { equal, not_equal, less, less_equal, greater, greater_equal };

// "==", "!=", ...
[[nodiscard]] std::string_view to_string(compare_op op) noexcept;
[[nodiscard]] bool compare(double actual, compare_op op, double threshold) noexcept;

// How a check reads a multi-rank trial: `none` evaluates over the ranks' summed capture; the others
// evaluate the inner expression once per rank and reduce (rank_checks.hpp).
enum class rank_reduction { none, max, min, imbalance, straggler };

// "max_over_ranks", "min_over_ranks", "imbalance", "straggler" ("" for none).
[[nodiscard]] std::string_view to_string(rank_reduction reduction) noexcept;

enum class check_quantity {
  metric,
  count,
  time_ms,
  cycles,
  normalized_cycles,
  ir,
  self_ir,
  calls,
  top_kernel,
  errors,    // count_errors(REGEX)
  ncu,       // ncu(METRIC, REGEX)
  samples,   // samples(KERNEL[, LINE]): PC samples
  stalls,    // stalls(KERNEL, REASON[, LINE]): PC samples stalled for REASON
  warnings,  // count_warnings(REGEX)
};

// "count", "time_ms", ..., "count_errors" ("metric" and "top_kernel" for the other two forms).
[[nodiscard]] std::string_view to_string(check_quantity quantity) noexcept;

// `OP baseline + 5%`: the bound is the baseline's median times (1 + fraction); fraction 0 for a
// bare `baseline`, negative for `baseline - N%`.
struct baseline_bound {
  double fraction = 0.0;
  std::string text;  // "baseline + 5%"
};

class check_expression {
public:
  // Throws usage_error naming the column (1-based) with a caret line, what was expected and an
  // example; a bad regex names the regex and why it does not compile.
  [[nodiscard]] static check_expression parse(std::string_view text);

  // The text as given (surrounding whitespace removed).
  [[nodiscard]] const std::string& text() const noexcept { return m_text; }
  [[nodiscard]] check_quantity quantity() const noexcept { return m_quantity; }
  [[nodiscard]] bool is_ratio() const noexcept { return m_denominator.has_value(); }
  // The denominator's function: the numerator's, except that samples() and stalls() may share a
  // ratio (`stalls(k, long_scoreboard) / samples(k)`), both counting PC samples.
  [[nodiscard]] check_quantity denominator_quantity() const noexcept {
    return m_denominator_quantity;
  }
  // The metric name, the regex, the scope, or the numerator's argument of a ratio.
  [[nodiscard]] const std::string& argument() const noexcept { return m_argument; }
  // The denominator's argument of a ratio.
  [[nodiscard]] const std::optional<std::string>& denominator() const noexcept {
    return m_denominator;
  }
  // Compiled argument / denominator for the regex forms (count, time_ms, ir, self_ir, calls,
  // count_errors, top_kernel).
  [[nodiscard]] const std::optional<name_regex>& pattern() const noexcept { return m_pattern; }
  [[nodiscard]] const std::optional<name_regex>& denominator_pattern() const noexcept {
    return m_denominator_pattern;
  }
  // The under(PATH) of count/time_ms/top_kernel; the patterns above are then the kernel regex
  // after the comma ("" matches every kernel).
  [[nodiscard]] const std::optional<scope_path>& scope() const noexcept { return m_scope; }
  [[nodiscard]] const std::optional<scope_path>& denominator_scope() const noexcept {
    return m_denominator_scope;
  }
  // Not meaningful for top_kernel.
  [[nodiscard]] compare_op op() const noexcept { return m_op; }
  [[nodiscard]] double threshold() const noexcept { return m_threshold; }
  // The number as written, for messages ("60", "1e3").
  [[nodiscard]] const std::string& threshold_text() const noexcept { return m_threshold_text; }
  [[nodiscard]] rank_reduction over_ranks() const noexcept { return m_over_ranks; }
  // The same expression without its rank reduction: what is measured on each rank.
  [[nodiscard]] check_expression per_rank() const {
    check_expression inner = *this;
    inner.m_over_ranks = rank_reduction::none;
    return inner;
  }
  // The cell after `@` of the left-hand term and of the denominator: a cell-addressed check has
  // both (or only the first, without a ratio); an ordinary one neither.
  [[nodiscard]] const std::optional<std::string>& cell() const noexcept { return m_cell; }
  [[nodiscard]] const std::optional<std::string>& denominator_cell() const noexcept {
    return m_denominator_cell;
  }
  // Whether the term was written `F(A)?`: a selector that matches nothing then reads 0 instead of
  // failing the check as not measured. count() and count_errors() read 0 without it.
  [[nodiscard]] bool absent_reads_zero() const noexcept { return m_absent_reads_zero; }
  [[nodiscard]] bool denominator_absent_reads_zero() const noexcept {
    return m_denominator_absent_reads_zero;
  }
  // One side of the expression as a plain check (no ratio, no cell, no baseline): the numerator,
  // or the denominator of a ratio.
  [[nodiscard]] check_expression term(bool denominator) const;
  // Set when the right-hand side is `baseline ...` instead of a number.
  [[nodiscard]] const std::optional<baseline_bound>& baseline() const noexcept {
    return m_baseline;
  }

private:
  friend class detail::check_parser;
  check_expression() = default;

  std::string m_text;
  check_quantity m_quantity = check_quantity::metric;
  check_quantity m_denominator_quantity = check_quantity::metric;
  std::string m_argument;
  std::optional<std::string> m_denominator;
  std::optional<name_regex> m_pattern;
  std::optional<name_regex> m_denominator_pattern;
  std::optional<scope_path> m_scope;
  std::optional<scope_path> m_denominator_scope;
  compare_op m_op = compare_op::equal;
  double m_threshold = 0.0;
  std::string m_threshold_text;
  rank_reduction m_over_ranks = rank_reduction::none;
  std::optional<baseline_bound> m_baseline;
  std::optional<std::string> m_cell;
  std::optional<std::string> m_denominator_cell;
  bool m_absent_reads_zero = false;
  bool m_denominator_absent_reads_zero = false;
};

struct check_result {
  std::string expression;
  bool passed = false;
  std::string expected;  // "== 20", "~ ^gemm"
  std::string actual;    // "18", "55.8 (8608876 / 153368)", "unknown"
  // One line when passed; when failed, expected vs actual, why, and the five hottest kernels
  // (or scopes, or functions) with their values.
  std::string message;
  // The number compared with the threshold; nullopt for top_kernel and unmeasurable values. Last,
  // so aggregate initialisations of the fields above keep their meaning.
  std::optional<double> value = std::nullopt;
};

// Evaluates against the trial's captures and metrics. A cell-addressed check fails here (it is
// judged over the cells' trials, not one capture). count/time_ms/top_kernel read the first
// capture (in the given order) that has kernels; cycles/normalized_cycles the first with scopes;
// ir, self_ir and calls the first with functions; count_errors sums over every capture holding a
// checker's report (capture::reported_errors set). A failed check of count_errors or of an error
// metric lists the findings (kind, kernel, location, thread/block). Never throws for data
// problems: a missing metric, no capture of the needed kind, an unknown launch count, an unknown
// or ambiguous scope, an ir()/self_ir()/calls() regex matching several functions, or a zero
// denominator give a failed result whose message says why. No kernel matching a count() regex is a
// value of 0, so `count(x) == 0` can pass (count_errors() likewise); no kernel matching time_ms(),
// no function matching ir()/self_ir()/calls(), no scope for cycles() and no kernel with the
// counter for ncu() is a failed result, not measured, naming the closest names, so a misspelt or
// renamed selector cannot pass `time_ms(x) < 1`. A term written `F(A)?` reads 0 instead.
[[nodiscard]] check_result evaluate_check(const check_expression& expression,
                                          const std::vector<capture>& captures,
                                          const metric_set& metrics);

}  // namespace aorta
