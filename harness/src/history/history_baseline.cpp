#include "history/history_baseline.hpp"

#include "aorta/error.hpp"
#include "history/series_changes.hpp"
#include "json_text.hpp"
#include "shell_word.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <map>
#include <set>

namespace aorta::detail {
namespace {

// The sweep's own duration: kept in the store, but no gate row judges it, so its steps (a slower
// disk, a busier runner) do not end a baseline.
constexpr std::string_view unjudged_quantity = "wall_seconds";

std::string short_commit(const std::string& commit) { return commit.substr(0, 12); }

[[noreturn]] void nothing_stored(const history_baseline_request& request, const std::string& store,
                                 const std::string& what) {
  throw error(exit_code::failed,
              fmt::format("no baseline from history for test '{}' on branch '{}' in history "
                          "store {}: {}. Nothing measured is never a pass: add this branch's "
                          "results first (`aorta history add DIR --branch {} --history {}`), or "
                          "name a branch that has them with --baseline history:BRANCH",
                          request.test, request.branch, store, what, shell_word(request.branch),
                          shell_word(request.store)));
}

// The branches that hold the test, for the message when the asked one does not.
std::string branches_of(const std::vector<stored_trial>& trials) {
  std::set<std::string> names;
  for (const auto& trial : trials) names.insert(trial.branch.empty() ? "(none)" : trial.branch);
  return fmt::format("{}", fmt::join(names, ", "));
}

// The card whose trials make the baseline: the run's own when the store has it, else the newest.
std::string chosen_card(const std::vector<stored_trial>& trials, const std::string& wanted) {
  const bool stored = std::any_of(trials.begin(), trials.end(),
                                  [&](const auto& t) { return t.card_uuid == wanted; });
  return stored ? wanted : trials.back().card_uuid;
}

struct commit_order {
  std::vector<std::string> names;  // oldest first
  std::map<std::string, std::size_t> position;
};

commit_order order_commits(const std::vector<stored_trial>& trials) {
  commit_order order;
  for (const auto& trial : trials) {
    if (order.position.try_emplace(trial.commit, order.names.size()).second)
      order.names.push_back(trial.commit);
  }
  return order;
}

struct last_change {
  std::size_t commit = 0;  // position in the commit order; 0 when no series changed
  std::string quantity;
};

// The newest change point over the test's judged series on this branch and card.
last_change find_last_change(const std::vector<stored_trial>& trials, const commit_order& order,
                             const std::string& test, const std::string& card) {
  // Per series, a commit's samples in the commit order (runs of one commit may lie apart in the
  // time order when they were measured at different times).
  std::map<std::pair<std::string, std::string>, std::map<std::size_t, series_commit>> series;
  for (const auto& trial : trials) {
    const std::size_t at = order.position.at(trial.commit);
    for (const auto& sample : trial.samples) {
      if (sample.quantity == unjudged_quantity) continue;
      auto [point, fresh] = series[{sample.quantity, sample.unit}].try_emplace(at);
      if (fresh) point->second = {trial.commit, trial.branch, {}, trial.time_unix, {}};
      point->second.samples.push_back(sample.value);
    }
  }
  last_change newest;
  for (auto& [name, points] : series) {
    std::vector<series_commit> commits;
    for (auto& [at, point] : points) commits.push_back(std::move(point));
    const series_key key{test, name.first, card, name.second};
    const auto analysis = analyse_series(key, std::move(commits), change_point_options{});
    for (const auto& change : analysis.changes) {
      const std::size_t at = order.position.at(change.commit);
      if (at > newest.commit) newest = {at, name.first};
    }
  }
  return newest;
}

// A stored quantity back into the per-trial snapshot the gate judges (the inverse of the ingest's
// naming in run_ingest.cpp).
void add_to_snapshot(trial_snapshot& snapshot, const history_sample& sample) {
  const auto inside = [&](std::string_view prefix) -> std::optional<std::string> {
    if (!sample.quantity.starts_with(prefix) || !sample.quantity.ends_with(')')) return {};
    return sample.quantity.substr(prefix.size(), sample.quantity.size() - prefix.size() - 1);
  };
  if (const auto kernel = inside("time_ms(")) {
    snapshot.kernels[*kernel].time_ms = sample.value;
  } else if (const auto counted = inside("count(")) {
    snapshot.kernels[*counted].launches = sample.value;
  } else if (sample.quantity != unjudged_quantity) {
    snapshot.metrics[sample.quantity] = sample.value;
  }
}

std::map<std::string, std::string> versions_of(const stored_trial& trial,
                                               const std::string& store) {
  std::map<std::string, std::string> versions;
  try {
    const auto object = parse_json(trial.tool_versions);
    for (const auto& [name, value] : object.items()) {
      if (value.is_string()) versions[name] = value.get<std::string>();
    }
  } catch (const std::exception& e) {
    throw error(exit_code::failed,
                fmt::format("history store {}: the tool versions of run {} are not a JSON object "
                            "({}); the store is damaged",
                            store, trial.run, e.what()));
  }
  return versions;
}

}  // namespace

std::optional<std::string> history_baseline_branch(const std::string& text) {
  if (text == "history") return std::string();
  if (!text.starts_with("history:")) return std::nullopt;
  const std::string branch = text.substr(8);
  const bool control = std::any_of(branch.begin(), branch.end(), [](char c) {
    return static_cast<unsigned char>(c) < 0x20 || c == 0x7f;
  });
  if (branch.empty() || branch.size() > 256 || control || branch.front() == '-') {
    throw usage_error(fmt::format("--baseline '{}': the branch after 'history:' must be 1 to 256 "
                                  "printable characters not starting with '-' (a directory named "
                                  "like this is given as ./{})",
                                  text, text));
  }
  return branch;
}

history_baseline baseline_from_history(history_store& store,
                                       const history_baseline_request& request) {
  history_baseline baseline;
  baseline.store = describe_history_store(request.store);
  baseline.branch = request.branch;
  auto trials = store.read_test_trials(request.test);
  if (trials.empty()) nothing_stored(request, baseline.store, "the store holds no measured trial of the test");
  std::erase_if(trials, [&](const auto& t) { return t.branch != request.branch; });
  if (trials.empty()) {
    nothing_stored(request, baseline.store,
                   fmt::format("the test's trials are on other branches only ({})",
                               branches_of(store.read_test_trials(request.test))));
  }
  baseline.card_uuid = chosen_card(trials, request.card);
  baseline.same_card = baseline.card_uuid == request.card;
  std::erase_if(trials, [&](const auto& t) { return t.card_uuid != baseline.card_uuid; });

  const auto order = order_commits(trials);
  const auto change = find_last_change(trials, order, request.test, baseline.card_uuid);
  if (!change.quantity.empty()) {
    baseline.since_change = order.names[change.commit];
    baseline.change_quantity = change.quantity;
  }
  const std::size_t newest = order.names.size();
  const std::size_t first =
      std::max(change.commit, newest - std::min<std::size_t>(newest, static_cast<std::size_t>(
                                                                         request.max_commits)));
  std::erase_if(trials, [&](const auto& t) { return order.position.at(t.commit) < first; });
  baseline.commits.assign(order.names.begin() + static_cast<std::ptrdiff_t>(first),
                          order.names.end());

  // Trials of other tool versions would make a baseline of two setups; the newest run's rule.
  const std::string toolchain = trials.back().tool_versions;
  baseline.other_toolchain_trials = static_cast<std::size_t>(
      std::erase_if(trials, [&](const auto& t) { return t.tool_versions != toolchain; }));
  baseline.card_model = trials.back().card_model;
  baseline.card_driver = trials.back().card_driver;
  baseline.measured.test = request.test;
  baseline.measured.fingerprint = fingerprint_of(versions_of(trials.back(), baseline.store));
  for (const auto& trial : trials) {
    trial_snapshot snapshot;
    for (const auto& sample : trial.samples) add_to_snapshot(snapshot, sample);
    baseline.measured.trials.push_back(std::move(snapshot));
  }
  baseline.measured.provenance = baseline.to_json();
  return baseline;
}

history_baseline baseline_from_history(const history_baseline_request& request) {
  const auto store = open_history_store(request.store, store_access::read_only);
  return baseline_from_history(*store, request);
}

std::string history_baseline::describe() const {
  const std::string range =
      commits.size() == 1 ? short_commit(commits.front())
                          : fmt::format("{}..{}", short_commit(commits.front()),
                                        short_commit(commits.back()));
  std::string card_text = card_uuid.empty() ? std::string("no card named") : "card " + card_uuid;
  if (!card_model.empty()) card_text += fmt::format(" ({}{})", card_model,
                                                    card_driver.empty() ? "" : ", " + card_driver);
  if (!same_card) card_text += ", not this run's card: the store has none of its trials";
  return fmt::format("history {}, branch {}: {} commit(s) {}{}, {} trial(s), {}", store, branch,
                     commits.size(), range,
                     since_change.empty() ? std::string(" (no change point)")
                                          : fmt::format(" (since the change at {} in {})",
                                                        short_commit(since_change), change_quantity),
                     measured.trials.size(), card_text);
}

nlohmann::json history_baseline::to_json() const {
  return {{"source", "history"},
          {"store", store},
          {"branch", branch},
          {"first_commit", commits.empty() ? "" : commits.front()},
          {"last_commit", commits.empty() ? "" : commits.back()},
          {"commits", commits.size()},
          {"trials", measured.trials.size()},
          {"card", card_uuid},
          {"card_model", card_model},
          {"card_driver", card_driver},
          {"same_card", same_card},
          {"since_change", since_change},
          {"change_quantity", change_quantity},
          {"other_toolchain_trials", other_toolchain_trials}};
}

std::string history_bisect_hint(const history_baseline& baseline, const std::string& bad,
                                const std::string& test) {
  // BUILD, RECIPE and COMMAND are the user's to fill in, as in `history changes`' hint.
  return fmt::format("aorta bisect --good {} --bad {} --output {} --build BUILD --recipe RECIPE "
                     "-- COMMAND",
                     shell_word(baseline.commits.back()),
                     bad.empty() ? std::string("COMMIT_UNDER_TEST") : shell_word(bad),
                     shell_word("bisect-" + test));
}

}  // namespace aorta::detail
