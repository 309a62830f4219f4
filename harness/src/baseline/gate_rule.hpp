// The regression verdict of one quantity, baseline samples against new samples
// (docs/regression-gate.md has the rule and its reasons).
#pragma once

#include "aorta/check.hpp"
#include "baseline/process_modes.hpp"

#include <optional>
#include <string>
#include <vector>

namespace aorta::detail {

enum class gate_verdict {
  same,         // within the tolerance (or better but not significantly)
  worse,        // beyond the tolerance in the forbidden direction, and sure of it
  better,       // beyond the tolerance in the allowed direction, and sure of it
  ambiguous,    // beyond the tolerance, not significant: more trials, then a warning
  appeared,     // in the new run only (a kernel, scope or function)
  disappeared,  // in the baseline only
  unknown,      // not measurable on one side (e.g. an unknown launch count)
};

struct gate_params {
  // The false-alarm rate per test: Holm's procedure over the test's timed rows keeps the chance
  // that any of them fails on unchanged code at or below alpha.
  double alpha = 0.05;
  // Total trials a gated run may take when a verdict is ambiguous (0: the recipe's trials x 3).
  int max_trials = 0;
};

struct gate_row {
  std::string test;
  std::string label;  // "time_ms(add_kernel)", or a check's text
  check_quantity quantity{};  // a plain metric (the table asserts it is the first value)
  bool exact = false;  // counts and instruction counts: compared exactly, no statistics
  compare_op op = compare_op::less_equal;
  double fraction = 0.0;  // the bound is base median x (1 + fraction)
  std::string bound_text;  // "<= baseline + 5%"
  // Moves of the median no larger than this (absolute) are SAME whatever the tolerance says.
  double noise_floor = 0.0;
  std::vector<double> base;
  std::vector<double> fresh;
  std::string why_unknown;
  // Set when the tolerance was raised to the baseline's noise floor (noise_floor.hpp).
  std::string floor_note;
  // A straggler row's reading of where its slow trials ran: "work: ..." or "card: ..."
  // (straggler_gate.hpp); empty when no card is known or nothing was slow. On a rank's own timed
  // row: that the rank shared its card at once with other ranks (rank_gate.cpp).
  std::string attribution;
  // A dynamic-loader or libc function's Ir (`ir(_dl_start)`, `ir((below main))`): judged like any
  // row, but folded out of the table, which leads with the program's own functions.
  bool system_frame = false;

  // Filled by judge().
  gate_verdict verdict = gate_verdict::unknown;
  double base_median = 0.0;
  double fresh_median = 0.0;
  std::optional<double> delta;    // fresh / base - 1
  // Timed rows: one-sided p of "beyond the margin in the forbidden direction" (Welch's t on the
  // logs, Yuen's trimmed t when a side has an outlier; the margin is gate_margin_share of the way
  // to the bound), and the same after Holm over the test's timed rows. A row is worse when that
  // adjusted p < alpha and the estimate (the shift of the mean logs, trimmed means for Yuen) is
  // past the bound itself.
  std::optional<double> p_value;
  std::optional<double> adjusted_p;
  std::optional<double> p_better;  // one-sided p of "beyond the margin the other way"
  bool estimate_beyond = false;    // the mean-log shift itself is past the tolerance
  bool estimate_better = false;    // ... past it the other way
  bool trimmed = false;            // Grubbs found an outlier on a side: Yuen's test, not Welch's
  std::string evidence;            // "p=0.003 (Holm 0.03)", "ranges apart", "exact"
  // A timed row whose two sides span the same process modes (gate_modes.hpp): the modes, and
  // what the evidence says of them ("multi-modal, 2 modes at [...]...").
  std::optional<multimodal_test> modes;
  std::string mode_evidence;
  // Its direction (a SLOWER row can have a lower median when more new trials ran in the fast
  // mode): up when the estimate past the bound, or else the within-mode shift, is a rise.
  bool mode_moved_up = false;

  // A PC-sample row (pc_sample_gate.hpp): its categories (lines or stall reasons) and each side's
  // samples in them, pooled over the trials. `base` and `fresh` then hold the per-trial share (%)
  // of the category that moved most, for the table.
  std::vector<std::string> categories;
  std::vector<double> base_counts;
  std::vector<double> fresh_counts;
  std::string moves;  // "matmul.py:63 27.7% -> 41.0%", filled by assess
};

// A timed row's test is held to this share of the way (on the log scale) from the baseline to
// its bound, the estimate to the bound itself: `time +5%` tests against +1.97% (1.05^0.4).
inline constexpr double gate_margin_share = 0.4;

// Timed rows need this many samples a side: Welch's test needs 2 values a side (Grubbs' 3), and
// fewer trials cannot tell a +10% change from noise at the CVs measured on GPUs.
inline constexpr std::size_t min_timed_samples = 3;

// "SAME", "SLOWER", "FEWER", ... chosen by the quantity and the direction of the move.
[[nodiscard]] std::string verdict_label(const gate_row& row);
// The new side's level that a row's change is told by: its median, or for a multi-modal row the
// baseline's median moved by the judged change (delta), since its medians follow the mix of modes.
[[nodiscard]] double judged_fresh_level(const gate_row& row);
// A worse, appeared or disappeared row fails a gate; ambiguous passes with a warning.
[[nodiscard]] bool fails_gate(const gate_row& row);

// One row judged alone (a family of one).
void judge(gate_row& row, const gate_params& params);

// The rows of one or more tests: each test's timed rows form one family; their p-values are Holm
// adjusted within it and compared with params.alpha.
void judge_rows(std::vector<gate_row>& rows, const gate_params& params);

}  // namespace aorta::detail
