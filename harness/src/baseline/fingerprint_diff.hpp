// Where a baseline's fingerprint and a fresh run's disagree: the gated run skips on any
// difference (sweep/gate_run.cpp), `aorta compare` warns about each (cli/compare_command.cpp).
// The card is left out: it is told about, not skipped on (card_identity.hpp).
#pragma once

#include "baseline/measured_series.hpp"

#include <string>
#include <vector>

namespace aorta::detail {

struct fingerprint_difference {
  std::string key;
  std::string before;  // the baseline's value, "(absent)" when it has none
  std::string after;   // the fresh run's value, "(absent)" when it has none
};

// Every key (card_key aside) whose value differs or that one side lacks, in key order.
[[nodiscard]] std::vector<fingerprint_difference>
fingerprint_differences(const measured_test& base, const measured_test& fresh);

}  // namespace aorta::detail
