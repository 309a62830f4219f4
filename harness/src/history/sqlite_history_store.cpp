#include "history/sqlite_history_store.hpp"

#include "aorta/error.hpp"
#include "bounded_input.hpp"
#include "history/sqlite_detector_state.hpp"
#include "history/sqlite_schema.hpp"
#include "history/sqlite_transaction.hpp"
#include "history/test_trials_query.hpp"
#include "json_text.hpp"
#include "utc_timestamp.hpp"

#include <fmt/format.h>
#include <sqlite3.h>

#include <algorithm>
#include <map>
#include <set>
#include <tuple>
#include <utility>

namespace aorta::detail {
namespace {

namespace fs = std::filesystem;

// How long a writer waits for another's transaction: eight CI jobs adding a sweep each queue
// for seconds, never minutes; past this the add fails and names the lock.
constexpr int history_busy_timeout_ms = 120'000;

struct statement_finalizer {
  void operator()(sqlite3_stmt* stmt) const noexcept { sqlite3_finalize(stmt); }
};
using statement = std::unique_ptr<sqlite3_stmt, statement_finalizer>;

struct connection_closer {
  void operator()(sqlite3* db) const noexcept { sqlite3_close_v2(db); }
};

std::string column_text(sqlite3_stmt* stmt, int column) {
  const unsigned char* value = sqlite3_column_text(stmt, column);
  return value == nullptr ? std::string() : std::string(reinterpret_cast<const char*>(value));
}

void bind(sqlite3_stmt* stmt, int index, const std::string& text) {
  sqlite3_bind_text(stmt, index, text.data(), static_cast<int>(text.size()), SQLITE_TRANSIENT);
}

// One row of the samples table; ordered as its primary key (quantity, run, trial_index).
struct pending_sample {
  std::int64_t quantity = 0;
  std::int64_t run = 0;
  int trial = 0;
  double value = 0.0;
  auto operator<=>(const pending_sample& other) const {
    return std::tie(quantity, run, trial) <=> std::tie(other.quantity, other.run, other.trial);
  }
  bool operator==(const pending_sample& other) const {
    return std::tie(quantity, run, trial) == std::tie(other.quantity, other.run, other.trial);
  }
};

class sqlite_history final : public history_store {
public:
  sqlite_history(fs::path file, store_access access) : m_file(std::move(file)) {
    open(access);
    verify_or_create(access);
  }

  history_add_outcome add_runs(const std::vector<history_run>& runs) override;
  std::vector<series_key> series(const std::string& test, const std::string& quantity) override;
  std::vector<series_commit> read_series(const series_key& key) override;
  std::vector<stored_trial> read_test_trials(const std::string& test) override;
  detector_state read_detector_state(const series_key& key) override {
    return read_sqlite_detector_state(m_db.get(), m_file.string(), key);
  }
  void
  save_detector_states(const std::vector<std::pair<series_key, detector_state>>& states) override {
    save_sqlite_detector_states(m_db.get(), m_file.string(), states);
  }

private:
  [[noreturn]] void fail(int code, std::string_view what) const;
  void exec(const char* sql, std::string_view what);
  statement prepare(std::string_view sql);
  bool step(sqlite3_stmt* stmt);
  void open(store_access access);
  void verify_or_create(store_access access);
  void require_schema_version();
  std::int64_t quantity_id(const std::string& name, const std::string& unit);
  bool insert_run(const history_run& run, std::int64_t& samples_added);
  void insert_samples();

  fs::path m_file;
  std::unique_ptr<sqlite3, connection_closer> m_db;
  std::map<std::pair<std::string, std::string>, std::int64_t> m_quantity_ids;
  // The add's samples, inserted in the samples table's key order once the runs are in.
  std::vector<pending_sample> m_pending_samples;
};

void sqlite_history::fail(int code, std::string_view what) const {
  const std::string fix = sqlite_failure_fix(code, history_busy_timeout_ms);
  const char* detail = m_db ? sqlite3_errmsg(m_db.get()) : sqlite3_errstr(code);
  throw error(exit_code::failed, fmt::format("history store {}: {}: {} ({}); {}", m_file.string(),
                                             what, detail, sqlite3_errstr(code), fix));
}

void sqlite_history::exec(const char* sql, std::string_view what) {
  const int rc = sqlite3_exec(m_db.get(), sql, nullptr, nullptr, nullptr);
  if (rc != SQLITE_OK) fail(rc, what);
}

statement sqlite_history::prepare(std::string_view sql) {
  sqlite3_stmt* raw = nullptr;
  const int rc =
      sqlite3_prepare_v2(m_db.get(), sql.data(), static_cast<int>(sql.size()), &raw, nullptr);
  statement stmt(raw);
  if (rc != SQLITE_OK) fail(rc, "cannot read the store");
  return stmt;
}

bool sqlite_history::step(sqlite3_stmt* stmt) {
  const int rc = sqlite3_step(stmt);
  if (rc == SQLITE_ROW) return true;
  if (rc == SQLITE_DONE) return false;
  fail(rc, "cannot read or write the store");
}

void sqlite_history::open(store_access access) {
  std::error_code ec;
  const bool exists = fs::exists(m_file, ec);
  if (exists) {
    try {
      require_regular_file(m_file);
    } catch (const input_error& e) {
      throw error(exit_code::failed, fmt::format("history store: {}", e.what()));
    }
  } else if (access != store_access::read_write) {
    throw error(exit_code::failed,
                fmt::format("history store {} does not exist; add runs first with `aorta history "
                            "add DIR --history {}`",
                            m_file.string(), m_file.string()));
  }
  // read_saving_state opens the file read-write but never creates it: a file this user may only
  // read opens read-only all the same, and saving the detector's state then fails alone.
  const int flags = access == store_access::read_only ? SQLITE_OPEN_READONLY
                    : access == store_access::read_saving_state
                        ? SQLITE_OPEN_READWRITE
                        : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE;
  sqlite3* raw = nullptr;
  const int rc = sqlite3_open_v2(m_file.c_str(), &raw, flags | SQLITE_OPEN_NOMUTEX, nullptr);
  m_db.reset(raw);
  if (rc != SQLITE_OK) fail(rc, "cannot open");
  sqlite3_extended_result_codes(m_db.get(), 1);
  sqlite3_busy_timeout(m_db.get(), history_busy_timeout_ms);
}

// Reads the schema inside the write lock, so two processes creating one new store cannot both
// create it, and a file that is not a store is refused before anything is written.
void sqlite_history::verify_or_create(store_access access) {
  const bool writing = access == store_access::read_write;
  exec(writing ? "BEGIN IMMEDIATE" : "BEGIN", "cannot begin a transaction");
  sqlite_write_transaction transaction(m_db.get());
  statement tables = prepare("SELECT count(*), sum(name = 'schema_version') FROM sqlite_master");
  step(tables.get());
  const auto objects = sqlite3_column_int64(tables.get(), 0);
  const bool versioned = sqlite3_column_int64(tables.get(), 1) > 0;
  tables.reset();
  if (objects == 0) {
    if (!writing) {
      throw error(exit_code::failed,
                  fmt::format("history store {} is empty; add runs first with `aorta history add`",
                              m_file.string()));
    }
    exec(std::string(sqlite_history_schema).c_str(), "cannot create the schema");
    exec(fmt::format("INSERT INTO schema_version VALUES ({})", history_schema_version).c_str(),
         "cannot create the schema");
    exec("COMMIT", "cannot create the schema");
    transaction.committed();
    return;
  }
  if (!versioned) {
    throw error(exit_code::failed,
                fmt::format("history store {}: a SQLite database without aorta's schema_version "
                            "table, so not an aorta history store; aorta left it untouched. Fix: "
                            "point --history at the store, or at a new path to start one",
                            m_file.string()));
  }
  require_schema_version();
}

void sqlite_history::require_schema_version() {
  statement version = prepare("SELECT version FROM schema_version");
  std::vector<std::int64_t> versions;
  while (step(version.get())) versions.push_back(sqlite3_column_int64(version.get(), 0));
  if (versions.size() == 1 && versions.front() == history_schema_version) return;
  const std::string found = versions.size() == 1 ? std::to_string(versions.front())
                                                 : fmt::format("{} rows", versions.size());
  throw error(exit_code::failed,
              fmt::format("history store {} has schema version {}; this aorta reads and writes "
                          "version {} only, and left the store untouched. Fix: use the aorta "
                          "that wrote it (a newer store needs a newer aorta), or start a new "
                          "store at another path",
                          m_file.string(), found, history_schema_version));
}

std::int64_t sqlite_history::quantity_id(const std::string& name, const std::string& unit) {
  const auto key = std::make_pair(name, unit);
  if (const auto found = m_quantity_ids.find(key); found != m_quantity_ids.end())
    return found->second;
  statement insert = prepare("INSERT OR IGNORE INTO quantities (name, unit) VALUES (?1, ?2)");
  bind(insert.get(), 1, name);
  bind(insert.get(), 2, unit);
  step(insert.get());
  statement select = prepare("SELECT id FROM quantities WHERE name = ?1 AND unit = ?2");
  bind(select.get(), 1, name);
  bind(select.get(), 2, unit);
  if (!step(select.get())) fail(SQLITE_ERROR, "a quantity just inserted is missing");
  const std::int64_t id = sqlite3_column_int64(select.get(), 0);
  m_quantity_ids.emplace(key, id);
  return id;
}

std::string versions_json(const std::map<std::string, std::string>& versions) {
  nlohmann::json object = nlohmann::json::object();
  for (const auto& [name, value] : versions) object[name] = value;
  return dump_json(object);
}

bool sqlite_history::insert_run(const history_run& run, std::int64_t& samples_added) {
  statement exists = prepare("SELECT 1 FROM runs WHERE run_key = ?1");
  bind(exists.get(), 1, run.run_key);
  if (step(exists.get())) return false;
  statement insert = prepare(
      "INSERT INTO runs (run_key, test, commit_id, branch, time, time_unix, card_uuid, "
      "card_model, card_driver, tool_versions, recipe_path, recipe_digest, aorta_version, source, "
      "added_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15)");
  const std::string fields[] = {run.run_key, run.test, run.commit, run.branch, run.time};
  for (int i = 0; i < 5; ++i) bind(insert.get(), i + 1, fields[i]);
  sqlite3_bind_int64(insert.get(), 6, run.time_unix);
  const std::string more[] = {
      run.card_uuid,   run.card_model,    run.card_driver,   versions_json(run.tool_versions),
      run.recipe_path, run.recipe_digest, run.aorta_version, run.source,
      utc_timestamp()};
  for (int i = 0; i < 9; ++i) bind(insert.get(), i + 7, more[i]);
  step(insert.get());
  const std::int64_t run_id = sqlite3_last_insert_rowid(m_db.get());
  statement trial = prepare("INSERT INTO trials (run, trial_index, verdict, measured, started_at) "
                            "VALUES (?1, ?2, ?3, ?4, ?5)");
  statement series =
      prepare("INSERT OR IGNORE INTO series (test, quantity, card_uuid) VALUES (?1, ?2, ?3)");
  std::set<std::int64_t> quantities;
  for (const auto& t : run.trials) {
    sqlite3_bind_int64(trial.get(), 1, run_id);
    sqlite3_bind_int(trial.get(), 2, t.index);
    bind(trial.get(), 3, t.verdict);
    sqlite3_bind_int(trial.get(), 4, t.verdict == "pass" || t.verdict == "fail" ? 1 : 0);
    bind(trial.get(), 5, t.started_at);
    step(trial.get());
    sqlite3_reset(trial.get());
    for (const auto& s : t.samples) {
      const std::int64_t quantity = quantity_id(s.quantity, s.unit);
      m_pending_samples.push_back({quantity, run_id, t.index, s.value});
      quantities.insert(quantity);
      ++samples_added;
    }
  }
  for (const std::int64_t quantity : quantities) {
    bind(series.get(), 1, run.test);
    sqlite3_bind_int64(series.get(), 2, quantity);
    bind(series.get(), 3, run.card_uuid);
    step(series.get());
    sqlite3_reset(series.get());
  }
  return true;
}

// In key order, each sample lands beside the one before it in the samples B-tree: a run's samples
// of a hundred quantities inserted in trial order would land in a hundred places, a page each.
// (Measured in benchmarks/README.md, "history": ingest CPU time.)
void sqlite_history::insert_samples() {
  std::sort(m_pending_samples.begin(), m_pending_samples.end());
  statement sample =
      prepare("INSERT INTO samples (quantity, run, trial_index, value) VALUES (?1, ?2, ?3, ?4)");
  for (const auto& pending : m_pending_samples) {
    sqlite3_bind_int64(sample.get(), 1, pending.quantity);
    sqlite3_bind_int64(sample.get(), 2, pending.run);
    sqlite3_bind_int(sample.get(), 3, pending.trial);
    sqlite3_bind_double(sample.get(), 4, pending.value);
    step(sample.get());
    sqlite3_reset(sample.get());
  }
  m_pending_samples.clear();
}

history_add_outcome sqlite_history::add_runs(const std::vector<history_run>& runs) {
  history_add_outcome outcome;
  exec("BEGIN IMMEDIATE", "cannot take the write lock");
  sqlite_write_transaction transaction(m_db.get());
  m_quantity_ids.clear();  // ids read in a rolled-back transaction would not exist
  m_pending_samples.clear();
  for (const auto& run : runs) {
    if (insert_run(run, outcome.samples_added)) {
      ++outcome.runs_added;
    } else {
      ++outcome.runs_already_present;
    }
  }
  insert_samples();
  exec("COMMIT", "cannot commit the add");
  transaction.committed();
  return outcome;
}

std::vector<series_key> sqlite_history::series(const std::string& test,
                                               const std::string& quantity) {
  statement select = prepare(
      "SELECT s.test, q.name, s.card_uuid, q.unit FROM series s JOIN quantities q ON q.id = "
      "s.quantity WHERE (?1 = '' OR s.test = ?1) AND (?2 = '' OR q.name = ?2) ORDER BY 1, 2, 3, 4");
  bind(select.get(), 1, test);
  bind(select.get(), 2, quantity);
  std::vector<series_key> keys;
  while (step(select.get())) {
    keys.push_back({column_text(select.get(), 0), column_text(select.get(), 1),
                    column_text(select.get(), 2), column_text(select.get(), 3)});
  }
  return keys;
}

std::vector<series_commit> sqlite_history::read_series(const series_key& key) {
  statement select = prepare(
      "SELECT r.commit_id, r.branch, r.time, r.time_unix, s.value FROM runs r "
      "JOIN samples s ON s.run = r.id JOIN trials t ON t.run = s.run AND t.trial_index = "
      "s.trial_index WHERE r.test = ?1 AND r.card_uuid = ?3 AND t.measured = 1 AND s.quantity = "
      "(SELECT id FROM quantities WHERE name = ?2 AND unit = ?4) "
      "ORDER BY r.time_unix, r.commit_id, r.id, s.trial_index");
  bind(select.get(), 1, key.test);
  bind(select.get(), 2, key.quantity);
  bind(select.get(), 3, key.card);
  bind(select.get(), 4, key.unit);
  std::vector<series_commit> commits;
  std::map<std::string, std::size_t> position;
  while (step(select.get())) {
    std::string commit = column_text(select.get(), 0);
    auto [at, fresh] = position.try_emplace(commit, commits.size());
    if (fresh) {
      commits.push_back({std::move(commit),
                         column_text(select.get(), 1),
                         column_text(select.get(), 2),
                         sqlite3_column_int64(select.get(), 3),
                         {}});
    }
    commits[at->second].samples.push_back(sqlite3_column_double(select.get(), 4));
  }
  return commits;
}

std::vector<stored_trial> sqlite_history::read_test_trials(const std::string& test) {
  statement select = prepare(test_trials_query('?'));
  bind(select.get(), 1, test);
  std::vector<stored_trial> trials;
  while (step(select.get())) {
    const std::int64_t run = sqlite3_column_int64(select.get(), 0);
    const int index = sqlite3_column_int(select.get(), 8);
    if (trials.empty() || trials.back().run != run || trials.back().index != index) {
      trials.push_back({run,
                        column_text(select.get(), 1),
                        column_text(select.get(), 2),
                        sqlite3_column_int64(select.get(), 3),
                        column_text(select.get(), 4),
                        column_text(select.get(), 5),
                        column_text(select.get(), 6),
                        column_text(select.get(), 7),
                        index,
                        {}});
    }
    trials.back().samples.push_back({column_text(select.get(), 9), column_text(select.get(), 10),
                                     sqlite3_column_double(select.get(), 11)});
  }
  return trials;
}

}  // namespace

std::unique_ptr<history_store> open_sqlite_history(const fs::path& file, store_access access) {
  return std::make_unique<sqlite_history>(file, access);
}

}  // namespace aorta::detail
