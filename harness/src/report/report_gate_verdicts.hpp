// The regression gate's verdict of each test a report reads (gate.json's `test_verdict`, beside
// the test's trial_<n>/ directories), laid over the trial it is about so the report counts the
// test as CTest did. Each gate.json is read once.
#pragma once

#include "aorta/trial_record.hpp"
#include "record/gate_verdict.hpp"

#include <filesystem>
#include <optional>
#include <string>
#include <unordered_map>

namespace aorta::detail {

class report_gate_verdicts {
 public:
  // Lays the gate's verdict of the test in `test_dir` over `trial` when it is about that trial.
  // A directory without gate.json, or one an older aorta wrote (no `test_verdict`: its verdict is
  // in the result.json already), leaves the trial as it is. Throws error (exit 1) naming the file
  // when gate.json cannot be read: the test's verdict is then unknown, never a pass.
  void lay_over_trial(const std::filesystem::path& test_dir, trial_record& trial);

 private:
  std::unordered_map<std::string, std::optional<gate_test_verdict>> read_;
};

}  // namespace aorta::detail
