// Confound verdicts (docs/recipes.md, "Confound verdicts"): every cell against the baseline cell,
// per kernel (time), scope (cycles) and function (Ir), paired by round.
//
// Why pairing: round r of the cell and round r of its reference ran back to back on one GPU, so
// whatever drifts between rounds (clocks settling, temperature, another tenant, the state the
// process starts in) moves both. The per-round ratio cell / reference cancels that common part;
// an unpaired test has to see through it, so it needs more trials for the same certainty.
#pragma once

#include "aorta/cells.hpp"
#include "aorta/trial_record.hpp"
#include "baseline/measured_series.hpp"
#include "baseline/process_modes.hpp"
#include "recipe/cell_plan.hpp"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

namespace aorta::detail {

enum class confound_verdict { same, slower, faster, ambiguous, unknown };

[[nodiscard]] std::string_view to_string(confound_verdict verdict) noexcept;
// "fail", "skip", "pass" (confound.ambiguous).
[[nodiscard]] std::string_view to_string(ambiguous_policy policy) noexcept;

struct confound_row {
  std::string cell;
  std::string reference;
  std::string quantity;  // "time_ms(gemm)", "cycles(phase)", "ir(main)", "count(gemm)"
  bool exact = false;    // counts and Ir: deterministic, compared without statistics
  std::vector<int> rounds;  // the rounds both cells measured
  std::vector<double> reference_values;  // paired with cell_values, one per round
  std::vector<double> cell_values;
  std::optional<double> reference_median;
  std::optional<double> cell_median;
  // Median of the per-round ratios cell / reference; for multi-modal trials the within-mode ratio.
  std::optional<double> ratio;
  // One-sided signed-rank p in the direction of the move; for multi-modal trials the smaller of
  // the within-mode and mode-frequency p-values, doubled (Bonferroni over the two).
  std::optional<double> p_value;
  std::optional<multimodal_test> modes;  // set when the trials fall into two or more modes
  std::string evidence;
  confound_verdict verdict = confound_verdict::unknown;
  // Attribution (cells/confound_attribution.hpp): filled after judging, for the table's order,
  // its summary sentence and the "more work" / "same work, slower" words.
  bool system_frame = false;  // a loader/libc/runtime function, folded as the gate's table does
  // Share of the cell's total change in this row's family (kernel time or Ir): inclusive, and for
  // a function its self Ir's share. nullopt where the family has no total (scope cycles, counts).
  std::optional<double> share;
  std::optional<double> self_share;
  std::optional<double> ratio_low;  // distribution-free interval of the median per-round ratio
  std::optional<double> ratio_high;
  std::string work;  // "more work (Ir +12.50%)", "same work, slower (...)"; empty for SAME rows
};

struct confound_settings {
  double threshold = 1.15;
  double alpha = 0.05;
};

// The trials of one cell, indexed by round (nullopt: that round did not run).
using cell_trials = std::vector<std::optional<trial_record>>;
// The same, read into the gate's snapshots.
using snapshot_by_round = std::vector<std::optional<trial_snapshot>>;

// Rows for every cell that has a reference (reference_cell), in cell order then quantity order.
// A cell (or its reference) with no measured trial gives one UNKNOWN row saying so.
// Each cell's rows come answer first (cells/confound_attribution.hpp); `changes`, when given,
// receives per cell its totals and summary sentence (cells/confound_summary.hpp).
struct cell_change;
[[nodiscard]] std::vector<confound_row> judge_cells(const std::vector<cell_plan>& cells,
                                                    const std::vector<cell_trials>& trials,
                                                    std::size_t baseline,
                                                    const confound_settings& settings,
                                                    std::vector<cell_change>* changes = nullptr);

[[nodiscard]] nlohmann::json confound_rows_json(const std::vector<confound_row>& rows);

}  // namespace aorta::detail
