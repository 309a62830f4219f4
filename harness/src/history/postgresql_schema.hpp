// The history store's schema, version history_schema_version, in PostgreSQL's types: the tables,
// keys and indexes of sqlite_schema.hpp one for one (docs/output-files.md, "History store"). Rows
// are only ever inserted: triggers refuse an UPDATE, DELETE or TRUNCATE of the recorded rows.
#pragma once

#include <string_view>

namespace aorta::detail {

// Taken by every transaction that may create a table, so two first adds to an empty database (or
// two first saves of the detector's state) cannot both create it. Any constant that no other
// application is likely to use.
inline constexpr std::string_view postgresql_schema_lock_key =
    "18367682425667905";  // an arbitrary constant of aorta's

inline constexpr std::string_view postgresql_history_schema = R"sql(
CREATE TABLE schema_version (version INTEGER NOT NULL);
CREATE TABLE runs (
  id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  run_key TEXT NOT NULL UNIQUE,
  test TEXT NOT NULL,
  commit_id TEXT NOT NULL,
  branch TEXT NOT NULL,
  time TEXT NOT NULL,
  time_unix BIGINT NOT NULL,
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
  run BIGINT NOT NULL REFERENCES runs(id),
  trial_index INTEGER NOT NULL,
  verdict TEXT NOT NULL,
  measured INTEGER NOT NULL,
  started_at TEXT NOT NULL,
  PRIMARY KEY (run, trial_index));
CREATE TABLE quantities (
  id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  name TEXT NOT NULL,
  unit TEXT NOT NULL,
  UNIQUE (name, unit));
CREATE TABLE series (
  test TEXT NOT NULL,
  quantity BIGINT NOT NULL REFERENCES quantities(id),
  card_uuid TEXT NOT NULL,
  PRIMARY KEY (test, quantity, card_uuid));
CREATE TABLE samples (
  quantity BIGINT NOT NULL REFERENCES quantities(id),
  run BIGINT NOT NULL REFERENCES runs(id),
  trial_index INTEGER NOT NULL,
  value DOUBLE PRECISION NOT NULL,
  PRIMARY KEY (quantity, run, trial_index));
CREATE INDEX runs_by_series ON runs (test, card_uuid);
CREATE FUNCTION aorta_history_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN RAISE EXCEPTION 'aorta history is append-only'; END $$;
CREATE TRIGGER runs_append_only BEFORE UPDATE OR DELETE ON runs
  FOR EACH ROW EXECUTE FUNCTION aorta_history_append_only();
CREATE TRIGGER runs_no_truncate BEFORE TRUNCATE ON runs
  FOR EACH STATEMENT EXECUTE FUNCTION aorta_history_append_only();
CREATE TRIGGER trials_append_only BEFORE UPDATE OR DELETE ON trials
  FOR EACH ROW EXECUTE FUNCTION aorta_history_append_only();
CREATE TRIGGER trials_no_truncate BEFORE TRUNCATE ON trials
  FOR EACH STATEMENT EXECUTE FUNCTION aorta_history_append_only();
CREATE TRIGGER samples_append_only BEFORE UPDATE OR DELETE ON samples
  FOR EACH ROW EXECUTE FUNCTION aorta_history_append_only();
CREATE TRIGGER samples_no_truncate BEFORE TRUNCATE ON samples
  FOR EACH STATEMENT EXECUTE FUNCTION aorta_history_append_only();
)sql";

// The detector's saved state, as sqlite_detector_state_table.
inline constexpr std::string_view postgresql_detector_state_table = R"sql(
CREATE TABLE IF NOT EXISTS detector_state (
  test TEXT NOT NULL,
  quantity TEXT NOT NULL,
  unit TEXT NOT NULL,
  card_uuid TEXT NOT NULL,
  first_commit BIGINT NOT NULL,
  last_commit BIGINT NOT NULL,
  digest BIGINT NOT NULL,
  changed INTEGER NOT NULL,
  change_commit BIGINT NOT NULL,
  range_first BIGINT NOT NULL,
  range_last BIGINT NOT NULL,
  p DOUBLE PRECISION NOT NULL,
  permutations INTEGER NOT NULL,
  PRIMARY KEY (test, quantity, unit, card_uuid, first_commit, last_commit));
)sql";

}  // namespace aorta::detail
