// `--baseline history[:BRANCH]` (docs/history.md, "Baselines from history"): a test's baseline
// taken from the history store instead of a recorded file. It is the branch's trials since the
// last change point of any of the test's series, at most a given count of commits, on the card
// the run used when the store has trials of it; the verdict names those commits and that card.
#pragma once

#include "aorta/sweep.hpp"
#include "baseline/measured_series.hpp"
#include "history/history_store.hpp"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

namespace aorta::detail {

// The most commits --history-commits may ask for (the default, default_history_baseline_commits,
// is in aorta/sweep.hpp beside the request that carries it).
inline constexpr int max_history_baseline_commits = 100'000;

// nullopt when `text` is not of the form `history` or `history:BRANCH` (it is then a baseline
// directory); "" for `history` (the branch is the checkout's). Throws usage_error for
// `history:` followed by an empty or unusable branch name.
[[nodiscard]] std::optional<std::string> history_baseline_branch(const std::string& text);

struct history_baseline_request {
  std::string store;  // as --history gives it
  std::string branch;
  std::string test;
  std::string card;  // the run's gpu_uuid; "" when it names none
  int max_commits = default_history_baseline_commits;
};

struct history_baseline {
  measured_test measured;
  std::string store;  // as messages show it (a URL without its password)
  std::string branch;
  std::vector<std::string> commits;  // oldest first
  std::string card_uuid;             // "" when the runs named no card
  std::string card_model;
  std::string card_driver;
  bool same_card = false;            // the store had trials of the run's own card
  std::string since_change;          // the first commit after the last change; "" when none
  std::string change_quantity;       // the series that changed there
  std::size_t other_toolchain_trials = 0;  // left out: tool versions unlike the newest run's

  // "history S, branch B: 12 commit(s) a..b since the change at c (q), 36 trial(s), card X"
  [[nodiscard]] std::string describe() const;
  [[nodiscard]] nlohmann::json to_json() const;
};

// Throws aorta::error (exit 1) naming the store, the branch and the test when the store holds no
// measured trial of the test on the branch: nothing measured is never a baseline.
[[nodiscard]] history_baseline baseline_from_history(history_store& store,
                                                     const history_baseline_request& request);

// The same, opening the store read-only.
[[nodiscard]] history_baseline baseline_from_history(const history_baseline_request& request);

// `aorta bisect --good <the baseline's last commit> --bad <bad>` (`bad` "" when git could not
// tell the run's commit: the hint then names a placeholder).
[[nodiscard]] std::string history_bisect_hint(const history_baseline& baseline,
                                              const std::string& bad, const std::string& test);

}  // namespace aorta::detail
