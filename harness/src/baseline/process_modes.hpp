// Per-process timing modes (docs/recipes.md, "Multi-modal timing"). On a GPU the same kernel in
// the same binary settles, per process, in one of a few speeds: an H100 bf16 GEMM has per-process
// medians near 30 us in some processes and near 45 us in others, in either cell and any round
// (benchmarks/gpu-2026-12-06/gemm-modes.json). Pairing by round cannot cancel that, and a
// single-mode test on trial values sees a +10% change through a 45% spread. So the trials of a row
// are first split into modes, then the change is judged twice: within the modes (location) and as
// a move of trials between modes (frequency).
#pragma once

#include <nlohmann/json.hpp>

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace aorta::detail {

// A split of sorted log times into modes is taken only when both parts are at least this far
// apart (ratio of their geometric means) and well separated for their spread (Ashman's D), with
// at least min_mode_trials trials on each side; at most max_modes modes. Parts less than
// mode_wide_ratio apart need the larger separation: a Triton GEMM whose processes draw one of two
// tile configurations runs 1.086x apart with 1-1.5% spread in each (D about 7, H100), while a
// normal sample of 20 cut at its best place passes D 3 in about 40% of draws at 5-10% spread and
// D 5 in under 1% (docs/recipes.md, "Multi-modal timing").
inline constexpr double mode_min_ratio = 1.05;
inline constexpr double mode_wide_ratio = 1.2;
inline constexpr double mode_min_separation = 3.0;
inline constexpr double mode_narrow_separation = 5.0;
inline constexpr std::size_t min_mode_trials = 2;
inline constexpr std::size_t max_modes = 4;
inline constexpr std::size_t min_discordant_rounds = 2;

// How close two modes may be: `wide` takes only parts mode_wide_ratio apart; `narrow` also the
// closer ones that pass mode_narrow_separation.
enum class mode_reach { wide, narrow };

struct mode_split {
  std::vector<std::size_t> mode_of;  // per value, in input order; 0 is the fastest mode
  std::vector<double> centres;       // per mode: geometric mean of its values
};

// Modes of positive values (times), by recursive splits of the sorted logs at the cut that leaves
// the least spread within the two parts (Otsu's rule), kept while both parts pass the limits above.
// Values that are not all positive and finite are one mode whose centre is NaN.
[[nodiscard]] mode_split detect_modes(const std::vector<double>& values,
                                      mode_reach reach = mode_reach::narrow);

struct multimodal_test {
  std::size_t modes = 0;
  std::vector<std::size_t> mode_of;             // per trial, the cell's first
  std::vector<std::size_t> cell_per_mode;       // trials of the cell in each mode
  std::vector<std::size_t> reference_per_mode;  // and of the reference
  std::vector<double> centres;  // geometric means, the cell's trials with its shift taken out
  // Within-mode location: the cell's shift in log time with a per-mode intercept (least squares),
  // its one-sided t-test. Absent (shared_modes 0) when no mode holds trials of both cells.
  std::size_t shared_modes = 0;
  double within_ratio = 1.0;  // exp(shift)
  double within_shift = 0.0;           // the shift itself, in log time
  double within_standard_error = 0.0;  // of the shift; 0 when every mode's trials are identical
  double within_p_greater = 1.0;
  double within_p_less = 1.0;
  double within_df = 0.0;
  // Mode frequency: Mann-Whitney U on the mode index (0 fastest), one-sided, as
  // scipy.stats.mannwhitneyu(cell_modes, reference_modes, alternative=...) computes it.
  double frequency_p_greater = 1.0;  // the cell's trials sit in slower modes
  double frequency_p_less = 1.0;
  double overall_ratio = 1.0;  // ratio of the geometric means, modes and all
};

// How the two sides' trials relate: cells run round by round (cell[r] and reference[r] back to
// back), a regression gate's new trials and baseline not at all.
enum class mode_pairing { by_round, none };

// Whether the trials of cell and reference are multi-modal: detect_modes over both, and each side
// has trials in two or more modes (a split that only separates the sides is a shift, not modes).
// By round, also: in some rounds the two cells sit in different modes (when every round has both
// in one mode the split follows a drift common to the pair, which the paired test cancels: at
// least min_discordant_rounds rounds must have them apart). Values must be positive. Returns a
// test with modes <= 1 when the trials are not multi-modal.
[[nodiscard]] multimodal_test test_multimodal(const std::vector<double>& cell,
                                              const std::vector<double>& reference,
                                              mode_pairing pairing = mode_pairing::by_round);

// "2 modes at [0.0296, 0.0441]: cell 5+5, reference 6+4 trials per mode", for a row's evidence;
// the gate names its sides "new" and "baseline".
[[nodiscard]] std::string describe_modes(const multimodal_test& test,
                                         std::string_view cell_name = "cell",
                                         std::string_view reference_name = "reference");

// The test as a JSON object (matrix.json's and gate.json's `modes`), each side's trials per mode
// under the key given.
[[nodiscard]] nlohmann::json multimodal_json(const multimodal_test& test, std::string_view cell_key,
                                             std::string_view reference_key);

}  // namespace aorta::detail
