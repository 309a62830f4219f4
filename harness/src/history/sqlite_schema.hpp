// The SQL text of the history store's schema, version history_schema_version
// (docs/output-files.md, "History store"). Rows are only ever inserted: triggers refuse an UPDATE
// or DELETE, so the history cannot be rewritten through aorta's own connection or a careless one.
#pragma once

#include <string_view>

namespace aorta::detail {

inline constexpr std::string_view sqlite_history_schema = R"sql(
CREATE TABLE schema_version (version INTEGER NOT NULL);
CREATE TABLE runs (
  id INTEGER PRIMARY KEY,
  run_key TEXT NOT NULL UNIQUE,
  test TEXT NOT NULL,
  commit_id TEXT NOT NULL,
  branch TEXT NOT NULL,
  time TEXT NOT NULL,
  time_unix INTEGER NOT NULL,
  card_uuid TEXT NOT NULL,
  card_model TEXT NOT NULL,
  card_driver TEXT NOT NULL,
  tool_versions TEXT NOT NULL,
  recipe_path TEXT NOT NULL,
  recipe_digest TEXT NOT NULL,
  aorta_version TEXT NOT NULL,
  source TEXT NOT NULL,
  added_at TEXT NOT NULL);
CREATE TABLE trials (
  run INTEGER NOT NULL REFERENCES runs(id),
  trial_index INTEGER NOT NULL,
  verdict TEXT NOT NULL,
  measured INTEGER NOT NULL,
  started_at TEXT NOT NULL,
  PRIMARY KEY (run, trial_index)) WITHOUT ROWID;
CREATE TABLE quantities (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  unit TEXT NOT NULL,
  UNIQUE (name, unit));
CREATE TABLE series (
  test TEXT NOT NULL,
  quantity INTEGER NOT NULL REFERENCES quantities(id),
  card_uuid TEXT NOT NULL,
  PRIMARY KEY (test, quantity, card_uuid)) WITHOUT ROWID;
CREATE TABLE samples (
  quantity INTEGER NOT NULL REFERENCES quantities(id),
  run INTEGER NOT NULL REFERENCES runs(id),
  trial_index INTEGER NOT NULL,
  value REAL NOT NULL,
  PRIMARY KEY (quantity, run, trial_index)) WITHOUT ROWID;
CREATE INDEX runs_by_series ON runs (test, card_uuid);
CREATE TRIGGER runs_append_only_u BEFORE UPDATE ON runs
  BEGIN SELECT RAISE(ABORT, 'aorta history is append-only'); END;
CREATE TRIGGER runs_append_only_d BEFORE DELETE ON runs
  BEGIN SELECT RAISE(ABORT, 'aorta history is append-only'); END;
CREATE TRIGGER trials_append_only_u BEFORE UPDATE ON trials
  BEGIN SELECT RAISE(ABORT, 'aorta history is append-only'); END;
CREATE TRIGGER trials_append_only_d BEFORE DELETE ON trials
  BEGIN SELECT RAISE(ABORT, 'aorta history is append-only'); END;
CREATE TRIGGER samples_append_only_u BEFORE UPDATE ON samples
  BEGIN SELECT RAISE(ABORT, 'aorta history is append-only'); END;
CREATE TRIGGER samples_append_only_d BEFORE DELETE ON samples
  BEGIN SELECT RAISE(ABORT, 'aorta history is append-only'); END;
)sql";

// The change-point detector's saved state (docs/history.md, "Incremental detection"): derived
// from the samples, so neither versioned nor append-only. Created by the first pass that saves
// it; a store without it reads as one with no state saved, and an older aorta ignores it.
inline constexpr std::string_view sqlite_detector_state_table = R"sql(
CREATE TABLE IF NOT EXISTS detector_state (
  test TEXT NOT NULL,
  quantity TEXT NOT NULL,
  unit TEXT NOT NULL,
  card_uuid TEXT NOT NULL,
  first_commit INTEGER NOT NULL,
  last_commit INTEGER NOT NULL,
  digest INTEGER NOT NULL,
  changed INTEGER NOT NULL,
  change_commit INTEGER NOT NULL,
  range_first INTEGER NOT NULL,
  range_last INTEGER NOT NULL,
  p REAL NOT NULL,
  permutations INTEGER NOT NULL,
  PRIMARY KEY (test, quantity, unit, card_uuid, first_commit, last_commit)) WITHOUT ROWID;
)sql";

}  // namespace aorta::detail
