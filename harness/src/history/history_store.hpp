// The results store behind `aorta history` (docs/history.md): append-only runs of tests, each
// with its trials and every numeric sample, keyed by commit, branch, time and card. One interface,
// so an SQLite file and a PostgreSQL database answer the same commands with the
// same schema (docs/output-files.md, "History store").
#pragma once

#include "history/change_points.hpp"

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace aorta::detail {

// The schema this build writes and reads; a store of any other version is refused.
inline constexpr int history_schema_version = 1;

struct history_sample {
  std::string quantity;  // a metric name, `time_ms(<kernel>)` or `count(<kernel>)`
  std::string unit;      // "ms", "count", "cycles", "Ir", "s" or "" (docs/history.md)
  double value = 0.0;    // always finite: readers refuse a non-finite one
};

struct history_trial {
  int index = 0;
  std::string verdict;     // as result.json has it: pass, fail, skip, error
  std::string started_at;  // ISO 8601 UTC, as result.json has it
  std::vector<history_sample> samples;
};

// One test's trials of one sweep run, at one commit.
struct history_run {
  std::string run_key;  // a digest of the test name and its result.json bytes: a run adds once
  std::string test;
  std::string commit;
  std::string branch;
  std::string time;  // ISO 8601 UTC ("2026-12-06T05:00:00Z"): orders commits
  std::int64_t time_unix = 0;
  std::string card_uuid;  // "" when result.json names no card
  std::string card_model;
  std::string card_driver;
  std::map<std::string, std::string> tool_versions;  // result.json's `versions`, aorta's left out
  std::string recipe_path;
  std::string recipe_digest;  // of what was measured as result.json records it (docs/history.md)
  std::string aorta_version;
  std::string source;  // the result directory the run was read from
  std::vector<history_trial> trials;
};

struct history_add_outcome {
  int runs_added = 0;
  int runs_already_present = 0;
  std::int64_t samples_added = 0;
};

// One series: a test's quantity on one card ("" when the store knows no card for its runs).
struct series_key {
  std::string test;
  std::string quantity;
  std::string card;
  std::string unit;
  auto operator<=>(const series_key&) const = default;
};

// Every measured sample (trials with verdict pass or fail) of one commit, in trial order.
struct series_commit {
  std::string commit;
  std::string branch;
  std::string time;
  std::int64_t time_unix = 0;
  std::vector<double> samples;
};

// One measured trial (verdict pass or fail) of a stored run, with every sample it holds: what a
// baseline taken from history (history_baseline.hpp) is made of.
struct stored_trial {
  std::int64_t run = 0;  // the store's id of the run: trials of one run share it
  std::string commit;
  std::string branch;
  std::int64_t time_unix = 0;
  std::string card_uuid;
  std::string card_model;
  std::string card_driver;
  std::string tool_versions;  // the JSON object as stored
  int index = 0;
  std::vector<history_sample> samples;
};

// The change-point detector's state of one series (docs/history.md, "Incremental detection"):
// each segment it reached and what it decided there. Derived from the samples, never history: a
// store may lose it and the next pass tests every segment again.
using detector_state = std::map<change_point_cache::segment, change_point_cache::outcome>;

class history_store {
public:
  virtual ~history_store() = default;
  // All runs or none, in one transaction; a run whose run_key is in the store already is left
  // out. Throws aorta::error naming the store on any failure, the store left as it was.
  virtual history_add_outcome add_runs(const std::vector<history_run>& runs) = 0;
  // Series of `test` (every test when empty) and `quantity` (every quantity when empty).
  [[nodiscard]] virtual std::vector<series_key> series(const std::string& test,
                                                       const std::string& quantity) = 0;
  // The series' commits, oldest first (by the earliest time of a commit's runs, then commit).
  [[nodiscard]] virtual std::vector<series_commit> read_series(const series_key& key) = 0;
  // Every measured trial of `test` on every branch and card, ordered as read_series orders
  // commits (then by run and trial).
  [[nodiscard]] virtual std::vector<stored_trial> read_test_trials(const std::string& test) = 0;
  // The detector state saved for the series; empty when none was (or the store predates it).
  [[nodiscard]] virtual detector_state read_detector_state(const series_key& key) = 0;
  // Replaces the saved state of each series given, all in one transaction; the table is created
  // on the first save. Needs a store opened with store_access::read_write or read_saving_state;
  // throws aorta::error naming the store on any failure, the saved state left as it was.
  virtual void
  save_detector_states(const std::vector<std::pair<series_key, detector_state>>& states) = 0;
};

// read_saving_state reads as read_only does (a missing or empty store is refused, no schema is
// created) but may save the detector's state: what `history changes`, `show` and `report
// --history` open.
enum class store_access { read_only, read_saving_state, read_write };

// `location` is a file path (SQLite; created by read_write when absent) or a `postgresql://` (or
// `postgres://`) URL, whose database gets the schema on the first add; a build without libpq
// refuses a URL with a usage error saying so. Throws aorta::error naming the store when it is not
// an aorta history store of history_schema_version (never touching it).
[[nodiscard]] std::unique_ptr<history_store> open_history_store(const std::string& location,
                                                                store_access access);

// The store as messages show it: a path as given, a URL without its password.
[[nodiscard]] std::string describe_history_store(const std::string& location);

}  // namespace aorta::detail
