// What the regression gate says of a test, kept in gate.json (`test_verdict`) beside the trials.
// Each trial's result.json is written once, by the trial, with the trial's own verdict; the gate
// never reopens it. A reader that shows the test as CTest saw it (the sweep's totals, `aorta
// report`) lays this over the last trial: the gate's rows as its checks, its notes, and a verdict
// the gate turned.
#pragma once

#include "aorta/check.hpp"
#include "aorta/trial_record.hpp"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

namespace aorta::detail {

struct gate_test_verdict {
  int trial_index = 0;  // the last trial's
  // The last trial's, so a gate.json an earlier run left in the directory is never laid over a
  // later run's trial of the same number.
  std::string started_at;
  // fail or skip when the gate turned the verdict of a trial that passed; nullopt: it stands.
  std::optional<verdict> turned_to;
  std::string reason;                // why, when turned
  std::vector<check_result> checks;  // the gate's rows
  std::vector<std::string> notes;
};

[[nodiscard]] nlohmann::json to_json(const gate_test_verdict& said);

// Throws error (exit 1) naming the key of gate.json's `test_verdict` that is missing or wrong.
[[nodiscard]] gate_test_verdict gate_test_verdict_from_json(const nlohmann::json& object);

// True when `said` is about this trial (same index and start).
[[nodiscard]] bool is_about(const gate_test_verdict& said, const trial_record& trial);

// The trial as the gate judged the test: its rows and notes added, its verdict turned (with
// verdict_from_gate) when it had passed.
void lay_over(trial_record& trial, const gate_test_verdict& said);

}  // namespace aorta::detail
