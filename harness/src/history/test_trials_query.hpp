// The one query behind history_store::read_test_trials, in SQLite's (?1) or PostgreSQL's ($1)
// parameter style, so both stores return the same rows in the same order.
#pragma once

#include <string>

namespace aorta::detail {

// Columns: run id, commit, branch, time_unix, card uuid, model, driver, tool versions, trial
// index, quantity name, unit, value; one row per sample of a measured trial.
[[nodiscard]] inline std::string test_trials_query(char parameter_prefix) {
  return std::string(
             "SELECT r.id, r.commit_id, r.branch, r.time_unix, r.card_uuid, r.card_model, "
             "r.card_driver, r.tool_versions, t.trial_index, q.name, q.unit, s.value FROM runs r "
             "JOIN trials t ON t.run = r.id JOIN samples s ON s.run = t.run AND s.trial_index = "
             "t.trial_index JOIN quantities q ON q.id = s.quantity WHERE r.test = ") +
         parameter_prefix +
         "1 AND t.measured = 1 ORDER BY r.time_unix, r.commit_id, r.id, t.trial_index, q.name";
}

}  // namespace aorta::detail
