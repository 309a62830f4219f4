// `aorta baseline record`, shared with `aorta calibrate`, which records what its A/A run measured.
#pragma once

#include "baseline/gate_rule.hpp"

#include <cstddef>
#include <string>
#include <vector>

namespace aorta::cli {

struct record_flags {
  std::vector<std::string> results;
  std::string into;
  bool skip_missing = false;
  std::string test_name;
  std::size_t min_trials = detail::min_timed_samples;
};

// One <into>/<test>.json per test found under `results`; prints what it wrote. Returns 0, or
// throws aorta::error naming the results and the fix.
int record_baselines(const record_flags& flags);

}  // namespace aorta::cli
