// The default gate: one line that gates every kernel, scope and function of a test against its
// baseline, so nobody writes a check per kernel. Same text in a recipe (`gate:`), on the command
// line (`--gate`) and in CMake (`GATE`):
//
//   time +5%, count exact, cycles +5%, ir +1%, alpha 0.05, max_trials 30
//
// `time +N%`: every kernel's time_ms <= baseline + N%; `cycles +N%`: every scope's cycles;
// `count exact|+N%`: every kernel's launches; `ir exact|+N%`: every function's inclusive Ir
// (the 25 with the largest Ir, as result.json records them), moves below 0.1% of the program's
// total Ir ignored; `ncu exact|+N%`: every kernel's ncu counters (collect.ncu.metrics), judged
// like counts by the ranges of the trials. `floor N|off`: a timed row's tolerance is at least N
// (default 1) times its baseline's trial-to-trial noise. `samples +N%`: every sampled kernel's
// PC-sample shares over its lines and over its stall reasons, N points of its samples allowed to
// move (a chi-square test against the sampling noise, baseline/pc_sample_gate.hpp). `ambiguous fail|skip|pass`: what a row
// still AMBIGUOUS when the trial budget is spent does (gate_judge.hpp). `straggler +N%`: each
// rank of a multi-rank run against the median of its peers, paired by trial (straggler_gate.hpp).
// `none`: explicit checks only.
#pragma once

#include "aorta/cells.hpp"
#include "baseline/gate_rule.hpp"
#include "baseline/measured_series.hpp"
#include "baseline/noise_floor.hpp"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace aorta::detail {

struct gate_spec {
  std::optional<double> time;    // fractions; nullopt: not gated
  std::optional<double> count;
  std::optional<double> cycles;
  std::optional<double> ir;
  std::optional<double> ncu;  // every ncu_counter.<metric>/<kernel> (ncu's `metrics:`)
  // `samples +N%`: how many points of a kernel's PC samples may move between its lines or its
  // stall reasons (baseline/pc_sample_gate.hpp).
  std::optional<double> samples;
  // `straggler +N%`: each rank against its peers' median within the run (straggler_gate.hpp).
  std::optional<double> straggler;
  gate_params params;
  bool alpha_given = false;
  bool same_card = false;  // `card same`: a baseline from another card skips (fails when required)
  // `floor N` / `floor off`: a timed row's tolerance is at least N x its baseline's noise.
  double floor_multiple = default_noise_floor_multiple;
  // `ambiguous fail|skip|pass`; nullopt: the command's default (gate_judge.hpp).
  std::optional<ambiguous_policy> ambiguous;
};

// "fail" / "skip" / "pass"; nullopt for any other word.
// (to_string is cells/confound.hpp's.)
[[nodiscard]] std::optional<ambiguous_policy> parse_ambiguous_policy(std::string_view word);

// What a test gets when it has a baseline but names neither a gate nor a baseline check.
// Ir rows of a default gate ignore moves below 0.1% of the program's total Ir: the dynamic loader's
// functions (_dl_start, __GI___tunables_init) moved by up to 2.5% of their own Ir between two
// runs of the same binary here, with the environment's size, not with the code.
inline constexpr std::string_view default_gate_text =
    "time +5%, count exact, cycles +5%, ir exact, samples +5%";

// Throws usage_error naming the item and the fix.
[[nodiscard]] gate_spec parse_gate_spec(std::string_view text);

// One row per kernel (time, count), scope (cycles) and function (ir) seen on either side.
[[nodiscard]] std::vector<gate_row> default_gate_rows(const gate_spec& spec,
                                                      const measured_test& base,
                                                      const measured_test& fresh);

// One row per baseline check expression.
[[nodiscard]] std::vector<gate_row> check_rows(const std::vector<check_expression>& checks,
                                               const measured_test& base,
                                               const measured_test& fresh);

}  // namespace aorta::detail
