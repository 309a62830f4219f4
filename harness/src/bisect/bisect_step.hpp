// One step of a bisect: a cells run of two builds, the good commit's as `base` and the step's as
// `head`, interleaved on one GPU (sweep/cell_sweep.cpp), and the verdict bisect reads from its
// confound rows. A step still AMBIGUOUS is run again with twice the rounds, up to a budget.
#pragma once

#include "bisect/bisect_record.hpp"

#include <filesystem>
#include <string>
#include <vector>

namespace aorta::detail {

// Which confound rows a bisect looks at: the names given (--quantity), else the kinds a gate line
// names (--gate: time, count, cycles, ir, ncu), else every row.
struct row_filter {
  std::vector<std::string> quantities;
  std::vector<std::string> prefixes;  // "time_ms(", "ir(", ...
  [[nodiscard]] bool watches(const std::string& quantity) const;
};

// Throws usage_error (via parse_gate_spec) for a gate line that does not parse.
[[nodiscard]] row_filter make_row_filter(const bisect_settings& settings);

// The ends (good against bad): BAD when a watched row is SLOWER (the regression reproduces), else
// AMBIGUOUS when one is AMBIGUOUS, UNKNOWN when none was measured, else GOOD.
[[nodiscard]] std::string ends_verdict(const std::vector<watched_row>& rows);
// A candidate against good, on the quantities the ends showed SLOWER: BAD when one is SLOWER,
// else AMBIGUOUS, else UNKNOWN (one unmeasured or missing), else GOOD.
[[nodiscard]] std::string candidate_verdict(const std::vector<watched_row>& rows,
                                            const std::vector<std::string>& tracked);

struct step_request {
  int number = 0;
  std::string commit;  // the head's
  std::filesystem::path base_worktree;
  std::filesystem::path head_worktree;
  std::filesystem::path bisect_dir;                   // absolute
  const std::vector<std::string>* tracked = nullptr;  // nullptr: the ends step
};

// Runs the looks of one step. Throws interrupted_error when a signal stopped a look (the step is
// then not recorded), usage_error for a recipe the cells run refuses.
[[nodiscard]] bisect_step run_bisect_step(const bisect_settings& settings,
                                          const step_request& request);

}  // namespace aorta::detail
