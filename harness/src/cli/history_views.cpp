#include "cli/history_views.hpp"

#include "aorta/error.hpp"
#include "aorta/schema.hpp"
#include "history/history_store.hpp"
#include "history/saved_detector.hpp"
#include "history/series_changes.hpp"
#include "json_document.hpp"
#include "metrics/number_format.hpp"
#include "shell_word.hpp"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <iostream>
#include <string_view>

namespace aorta::cli {
namespace {

using detail::series_analysis;

struct store_analysis {
  std::vector<series_analysis> series;
  detail::detector_state_use detector;
};

// The series' passes reuse the detector state an earlier process saved, and save theirs; a store
// that cannot take it is named on stderr (the change points are the same either way).
store_analysis analyse_store(const history_view_flags& flags) {
  auto store = detail::open_history_store(flags.store, detail::store_access::read_saving_state);
  detail::saved_detector detector(*store, flags.full_pass);
  store_analysis analysis;
  for (const auto& key : store->series(flags.test, flags.quantity)) {
    analysis.series.push_back(detector.analyse(key, store->read_series(key), flags.detector));
  }
  analysis.detector = detector.save();
  if (!analysis.detector.not_saved.empty()) {
    fmt::print(std::cerr, "aorta: history: warning: the detector's state was not saved: {}\n",
               analysis.detector.not_saved);
  }
  return analysis;
}

nlohmann::json detector_json(const detail::detector_state_use& use) {
  return {{"series", use.series},
          {"segments_reused", use.segments_reused},
          {"segments_tested", use.segments_tested},
          {"permutations_run", use.permutations_run},
          {"series_saved", use.series_saved},
          {"saved", use.not_saved.empty()}};
}

using detail::shell_word;

std::string short_commit(const std::string& commit) {
  return commit.substr(0, 12);
}

std::string series_title(const detail::series_key& key) {
  std::string title = fmt::format("{}  {}", key.test, key.quantity);
  if (!key.unit.empty()) title += fmt::format(" ({})", key.unit);
  if (!key.card.empty()) title += fmt::format("  card {}", key.card);
  return title;
}

std::string delta_text(double percent) {
  return std::isfinite(percent) ? fmt::format("{:+.2f}%", percent) : std::string("n/a");
}

std::string bisect_hint(const detail::series_key& key, const detail::series_change& change) {
  // BUILD, RECIPE and COMMAND are the user's to fill in: the store does not know them.
  return fmt::format("aorta bisect --good {} --bad {} --quantity {} --output {} --build BUILD "
                     "--recipe RECIPE -- COMMAND",
                     shell_word(change.last_before), shell_word(change.range_last),
                     shell_word(key.quantity), shell_word("bisect-" + key.test));
}

nlohmann::json number_or_null(double value) {
  return std::isfinite(value) ? nlohmann::json(value) : nlohmann::json(nullptr);
}

nlohmann::json changes_json(const history_view_flags& flags, const store_analysis& analysed) {
  const auto& analyses = analysed.series;
  nlohmann::json changes = nlohmann::json::array();
  std::size_t points = 0;
  for (const auto& analysis : analyses) {
    points += analysis.commits.size();
    for (const auto& change : analysis.changes) {
      changes.push_back({{"test", analysis.key.test},
                         {"quantity", analysis.key.quantity},
                         {"unit", analysis.key.unit},
                         {"card", analysis.key.card},
                         {"commit", change.commit},
                         {"range_first", change.range_first},
                         {"range_last", change.range_last},
                         {"good", change.last_before},
                         {"before", number_or_null(change.before)},
                         {"after", number_or_null(change.after)},
                         {"delta_percent", number_or_null(change.delta_percent)},
                         {"p", change.p},
                         {"bisect", bisect_hint(analysis.key, change)}});
    }
  }
  return detail::stamped({{"store", detail::describe_history_store(flags.store)},
                          {"series", analyses.size()},
                          {"points", points},
                          {"max_p", flags.detector.max_p},
                          {"permutations", flags.detector.permutations},
                          {"min_commits", flags.detector.min_side_commits},
                          {"changes", std::move(changes)},
                          {"detector_state", detector_json(analysed.detector)}},
                         schemas::history_changes);
}

}  // namespace

int print_history_changes(const history_view_flags& flags) {
  const auto analysed = analyse_store(flags);
  if (flags.json) {
    std::cout << detail::document_text(changes_json(flags, analysed));
    return 0;
  }
  const auto& analyses = analysed.series;
  std::size_t count = 0;
  for (const auto& analysis : analyses) {
    for (const auto& change : analysis.changes) {
      ++count;
      const std::string range =
          change.range_first == change.range_last
              ? std::string()
              : fmt::format(" (somewhere in {}..{})", short_commit(change.range_first),
                            short_commit(change.range_last));
      fmt::print(std::cout, "{}: {} at {}{}, median {} -> {}, p {}\n", series_title(analysis.key),
                 delta_text(change.delta_percent), short_commit(change.commit), range,
                 detail::format_number(change.before), detail::format_number(change.after),
                 detail::format_number(change.p));
      fmt::print(std::cout, "  {}\n", bisect_hint(analysis.key, change));
    }
  }
  fmt::print(std::cout, "aorta: history: {} change(s) in {} series of {}\n", count, analyses.size(),
             detail::describe_history_store(flags.store));
  return 0;
}

int print_history_show(const history_view_flags& flags) {
  const auto analyses = analyse_store(flags).series;
  if (analyses.empty()) {
    throw error(exit_code::failed,
                fmt::format("history store {} has no series of test '{}'{}; `aorta history "
                            "changes --history {}` lists what it has",
                            detail::describe_history_store(flags.store), flags.test,
                            flags.quantity.empty() ? "" : " and quantity '" + flags.quantity + "'",
                            detail::describe_history_store(flags.store)));
  }
  for (const auto& analysis : analyses) {
    fmt::print(std::cout, "{}\n", series_title(analysis.key));
    fmt::print(std::cout, "  {:<12}  {:<20}  {:>3}  {:>12}  {:>25}\n", "commit", "time", "n",
               "median", "spread (min..max)");
    auto next_change = analysis.changes.begin();
    for (std::size_t i = 0; i < analysis.commits.size(); ++i) {
      const auto& commit = analysis.commits[i];
      const auto [low, high] = std::minmax_element(commit.samples.begin(), commit.samples.end());
      std::string mark;
      if (next_change != analysis.changes.end() && next_change->commit_index == i) {
        mark = fmt::format("  <- change {} (p {})", delta_text(next_change->delta_percent),
                           detail::format_number(next_change->p));
        ++next_change;
      }
      fmt::print(std::cout, "  {:<12}  {:<20}  {:>3}  {:>12}  {:>25}{}\n",
                 short_commit(commit.commit), commit.time, commit.samples.size(),
                 detail::format_number(detail::median_of(commit.samples)),
                 fmt::format("{}..{}", detail::format_number(*low), detail::format_number(*high)),
                 mark);
    }
  }
  return 0;
}

}  // namespace aorta::cli
