#include "history/postgresql_history_store.hpp"

#include "aorta/error.hpp"
#include "history/postgresql_connection.hpp"
#include "history/postgresql_detector_state.hpp"
#include "history/postgresql_schema.hpp"
#include "history/test_trials_query.hpp"
#include "json_text.hpp"
#include "utc_timestamp.hpp"

#include <fmt/format.h>

#include <charconv>
#include <chrono>
#include <map>
#include <set>
#include <thread>
#include <utility>

namespace aorta::detail {
namespace {

using statement_values = std::vector<std::optional<std::string>>;

// A transaction the server aborts as a deadlock (two adds inserting the same new quantities in
// another order) or a serialization failure is retried whole this many times.
constexpr int add_attempts = 20;

// Samples per INSERT: one statement carries them as three arrays, not one round trip each.
constexpr std::size_t samples_per_statement = 20'000;

bool retryable(const pg_statement_error& failure) {
  return failure.sqlstate == "40001" || failure.sqlstate == "40P01";
}

// Thrown inside an add to unwind to its retry loop.
struct retry_add {
  pg_statement_error failure;
};

std::string text_of(const PGresult* result, int row, int column) {
  return PQgetisnull(result, row, column) ? std::string() : PQgetvalue(result, row, column);
}

template <class Number>
Number number_of(const pg_connection& db, const PGresult* result, int row, int column) {
  const std::string text = text_of(result, row, column);
  Number value{};
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size())
    db.fail("read a value that is not a number", {"", "'" + text + "'"});
  return value;
}

// One element of a PostgreSQL array literal: quoted, with `"` and `\` escaped, so any text
// (and the word NULL) reads back as itself.
std::string array_element(const std::string& text) {
  std::string quoted = "\"";
  for (const char c : text) {
    if (c == '"' || c == '\\') quoted += '\\';
    quoted += c;
  }
  return quoted + "\"";
}

std::string tool_versions_json(const std::map<std::string, std::string>& versions) {
  nlohmann::json object = nlohmann::json::object();
  for (const auto& [name, value] : versions) object[name] = value;
  return dump_json(object);
}

class postgresql_history final : public history_store {
public:
  postgresql_history(const std::string& url, store_access access)
      : m_db(url, describe_postgresql_url(url)) {
    if (access == store_access::read_only)
      m_db.must_run("SET default_transaction_read_only = on", {}, "cannot open read-only");
    verify_or_create(access);
  }

  history_add_outcome add_runs(const std::vector<history_run>& runs) override;
  std::vector<series_key> series(const std::string& test, const std::string& quantity) override;
  std::vector<series_commit> read_series(const series_key& key) override;
  std::vector<stored_trial> read_test_trials(const std::string& test) override;
  detector_state read_detector_state(const series_key& key) override {
    return read_postgresql_detector_state(m_db, key);
  }
  void
  save_detector_states(const std::vector<std::pair<series_key, detector_state>>& states) override {
    save_postgresql_detector_states(m_db, states);
  }

private:
  void verify_or_create(store_access access);
  void require_schema_version();
  pg_result run_in_add(std::string_view sql, const statement_values& values);
  history_add_outcome add_once(const std::vector<history_run>& runs);
  std::int64_t quantity_id(const std::string& name, const std::string& unit);
  bool insert_run(const history_run& run, std::int64_t& samples_added);
  void insert_samples(const std::string& run_id, const history_run& run);

  pg_connection m_db;
  std::map<std::pair<std::string, std::string>, std::int64_t> m_quantity_ids;
};

// Rolls back unless committed: an exception between BEGIN and COMMIT leaves the store as it was
// (and a process killed mid-add loses its connection, which the server rolls back the same way).
class transaction_guard {
public:
  explicit transaction_guard(pg_connection& db) : m_db(db) {}
  transaction_guard(const transaction_guard&) = delete;
  transaction_guard& operator=(const transaction_guard&) = delete;
  ~transaction_guard() {
    pg_statement_error ignored;
    if (!m_committed) m_db.run("ROLLBACK", {}, ignored);
  }
  void committed() noexcept { m_committed = true; }

private:
  pg_connection& m_db;
  bool m_committed = false;
};

void postgresql_history::verify_or_create(store_access access) {
  m_db.must_run("BEGIN", {}, "cannot begin a transaction");
  transaction_guard transaction(m_db);
  if (access == store_access::read_write) {
    m_db.must_run("SELECT pg_advisory_xact_lock($1::bigint)",
                  {std::string(postgresql_schema_lock_key)}, "cannot take the schema lock");
  }
  const pg_result tables = m_db.must_run(
      "SELECT count(*), count(*) FILTER (WHERE c.relname = 'schema_version') FROM pg_class c "
      "JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = current_schema() AND "
      "c.relkind IN ('r', 'v', 'm', 'p', 'f')",
      {}, "cannot list the database's tables");
  const auto objects = number_of<std::int64_t>(m_db, tables.get(), 0, 0);
  const bool versioned = number_of<std::int64_t>(m_db, tables.get(), 0, 1) > 0;
  if (objects == 0) {
    if (access != store_access::read_write) {
      throw error(exit_code::failed,
                  fmt::format("history store {} is empty; add runs first with `aorta history add`",
                              m_db.described()));
    }
    m_db.run_script(postgresql_history_schema, "cannot create the schema");
    m_db.must_run("INSERT INTO schema_version VALUES ($1::integer)",
                  {std::to_string(history_schema_version)}, "cannot create the schema");
    m_db.must_run("COMMIT", {}, "cannot create the schema");
    transaction.committed();
    return;
  }
  if (!versioned) {
    throw error(exit_code::failed,
                fmt::format("history store {}: the database's schema has tables but no "
                            "schema_version table, so it is not an aorta history store; aorta "
                            "left it untouched. Fix: give aorta a database (or a user whose "
                            "search_path names a schema) of its own",
                            m_db.described()));
  }
  require_schema_version();
}

void postgresql_history::require_schema_version() {
  const pg_result versions =
      m_db.must_run("SELECT version FROM schema_version", {}, "cannot read the schema version");
  const int rows = PQntuples(versions.get());
  if (rows == 1 && text_of(versions.get(), 0, 0) == std::to_string(history_schema_version)) return;
  const std::string found =
      rows == 1 ? text_of(versions.get(), 0, 0) : fmt::format("{} rows", rows);
  throw error(exit_code::failed,
              fmt::format("history store {} has schema version {}; this aorta reads and writes "
                          "version {} only, and left the store untouched. Fix: use the aorta "
                          "that wrote it (a newer store needs a newer aorta), or start a new "
                          "store in another database",
                          m_db.described(), found, history_schema_version));
}

pg_result postgresql_history::run_in_add(std::string_view sql, const statement_values& values) {
  pg_statement_error failure;
  pg_result result = m_db.run(sql, values, failure);
  if (result != nullptr) return result;
  if (retryable(failure)) throw retry_add{failure};
  m_db.fail("cannot add the runs", failure);
}

std::int64_t postgresql_history::quantity_id(const std::string& name, const std::string& unit) {
  const auto key = std::make_pair(name, unit);
  if (const auto found = m_quantity_ids.find(key); found != m_quantity_ids.end())
    return found->second;
  run_in_add("INSERT INTO quantities (name, unit) VALUES ($1, $2) ON CONFLICT DO NOTHING",
             {name, unit});
  // READ COMMITTED: this statement sees the row whether this add or a concurrent one inserted it.
  const pg_result id =
      run_in_add("SELECT id FROM quantities WHERE name = $1 AND unit = $2", {name, unit});
  if (PQntuples(id.get()) != 1) m_db.fail("a quantity just inserted is missing", {"", name});
  const auto value = number_of<std::int64_t>(m_db, id.get(), 0, 0);
  m_quantity_ids.emplace(key, value);
  return value;
}

void postgresql_history::insert_samples(const std::string& run_id, const history_run& run) {
  std::string quantities = "{", trials = "{", values = "{";
  std::size_t pending = 0;
  const auto flush = [&] {
    if (pending == 0) return;
    quantities.back() = trials.back() = values.back() = '}';
    run_in_add("INSERT INTO samples (quantity, run, trial_index, value) SELECT q, $1::bigint, t, v "
               "FROM unnest($2::bigint[], $3::integer[], $4::float8[]) AS s(q, t, v)",
               {run_id, quantities, trials, values});
    quantities = trials = values = "{";
    pending = 0;
  };
  for (const auto& trial : run.trials) {
    for (const auto& sample : trial.samples) {
      // Numbers only, formatted here: the shortest text that reads back as the same double.
      quantities += fmt::format("{},", quantity_id(sample.quantity, sample.unit));
      trials += fmt::format("{},", trial.index);
      values += fmt::format("{},", sample.value);
      if (++pending == samples_per_statement) flush();
    }
  }
  flush();
}

bool postgresql_history::insert_run(const history_run& run, std::int64_t& samples_added) {
  // The run_key's unique constraint decides between two adds of one run: the second waits for the
  // first's commit, then inserts nothing.
  const pg_result inserted = run_in_add(
      "INSERT INTO runs (run_key, test, commit_id, branch, time, time_unix, card_uuid, card_model, "
      "card_driver, tool_versions, recipe_path, recipe_digest, aorta_version, source, added_at) "
      "VALUES ($1, $2, $3, $4, $5, $6::bigint, $7, $8, $9, $10, $11, $12, $13, $14, $15) "
      "ON CONFLICT (run_key) DO NOTHING RETURNING id",
      {run.run_key, run.test, run.commit, run.branch, run.time, std::to_string(run.time_unix),
       run.card_uuid, run.card_model, run.card_driver, tool_versions_json(run.tool_versions),
       run.recipe_path, run.recipe_digest, run.aorta_version, run.source, utc_timestamp()});
  if (PQntuples(inserted.get()) == 0) return false;
  const std::string run_id = text_of(inserted.get(), 0, 0);
  // One statement for the run's trials and one for its series: a statement per row cost a round
  // trip each, most of an add's time (benchmarks/README.md, "history").
  std::string indexes = "{", verdicts = "{", measured = "{", started = "{";
  std::set<std::int64_t> quantities;
  for (const auto& trial : run.trials) {
    indexes += fmt::format("{},", trial.index);
    verdicts += array_element(trial.verdict) + ",";
    measured += trial.verdict == "pass" || trial.verdict == "fail" ? "1," : "0,";
    started += array_element(trial.started_at) + ",";
    for (const auto& sample : trial.samples) {
      quantities.insert(quantity_id(sample.quantity, sample.unit));
      ++samples_added;
    }
  }
  if (!run.trials.empty()) {
    for (std::string* array : {&indexes, &verdicts, &measured, &started}) array->back() = '}';
    run_in_add("INSERT INTO trials (run, trial_index, verdict, measured, started_at) SELECT "
               "$1::bigint, i, v, m, s FROM unnest($2::integer[], $3::text[], $4::integer[], "
               "$5::text[]) AS t(i, v, m, s)",
               {run_id, indexes, verdicts, measured, started});
  }
  insert_samples(run_id, run);
  if (!quantities.empty()) {
    std::string ids = "{";
    for (const std::int64_t quantity : quantities) ids += fmt::format("{},", quantity);
    ids.back() = '}';
    run_in_add("INSERT INTO series (test, quantity, card_uuid) SELECT $1, q, $3 FROM "
               "unnest($2::bigint[]) AS s(q) ON CONFLICT DO NOTHING",
               {run.test, ids, run.card_uuid});
  }
  return true;
}

history_add_outcome postgresql_history::add_once(const std::vector<history_run>& runs) {
  history_add_outcome outcome;
  m_db.must_run("BEGIN", {}, "cannot begin the add");
  transaction_guard transaction(m_db);
  m_quantity_ids.clear();  // ids read in a rolled-back transaction may not exist
  for (const auto& run : runs) {
    if (insert_run(run, outcome.samples_added)) {
      ++outcome.runs_added;
    } else {
      ++outcome.runs_already_present;
    }
  }
  run_in_add("COMMIT", {});
  transaction.committed();
  return outcome;
}

history_add_outcome postgresql_history::add_runs(const std::vector<history_run>& runs) {
  for (int attempt = 1;; ++attempt) {
    try {
      return add_once(runs);
    } catch (const retry_add& retry) {
      if (attempt == add_attempts)
        m_db.fail("the add was aborted every time it was tried", retry.failure);
      std::this_thread::sleep_for(std::chrono::milliseconds(10 * attempt));
    }
  }
}

std::vector<series_key> postgresql_history::series(const std::string& test,
                                                   const std::string& quantity) {
  const pg_result rows = m_db.must_run(
      "SELECT s.test, q.name, s.card_uuid, q.unit FROM series s JOIN quantities q ON q.id = "
      "s.quantity WHERE ($1::text = '' OR s.test = $1::text) AND ($2::text = '' OR q.name = "
      "$2::text) ORDER BY 1, 2, 3, 4",
      {test, quantity}, "cannot read the series");
  std::vector<series_key> keys;
  for (int row = 0; row < PQntuples(rows.get()); ++row) {
    keys.push_back({text_of(rows.get(), row, 0), text_of(rows.get(), row, 1),
                    text_of(rows.get(), row, 2), text_of(rows.get(), row, 3)});
  }
  return keys;
}

std::vector<series_commit> postgresql_history::read_series(const series_key& key) {
  const pg_result rows = m_db.must_run(
      "SELECT r.commit_id, r.branch, r.time, r.time_unix, s.value FROM runs r "
      "JOIN samples s ON s.run = r.id JOIN trials t ON t.run = s.run AND t.trial_index = "
      "s.trial_index WHERE r.test = $1 AND r.card_uuid = $3 AND t.measured = 1 AND s.quantity = "
      "(SELECT id FROM quantities WHERE name = $2 AND unit = $4) "
      "ORDER BY r.time_unix, r.commit_id, r.id, s.trial_index",
      {key.test, key.quantity, key.card, key.unit}, "cannot read a series");
  std::vector<series_commit> commits;
  std::map<std::string, std::size_t> position;
  for (int row = 0; row < PQntuples(rows.get()); ++row) {
    std::string commit = text_of(rows.get(), row, 0);
    auto [at, fresh] = position.try_emplace(commit, commits.size());
    if (fresh) {
      commits.push_back({std::move(commit),
                         text_of(rows.get(), row, 1),
                         text_of(rows.get(), row, 2),
                         number_of<std::int64_t>(m_db, rows.get(), row, 3),
                         {}});
    }
    commits[at->second].samples.push_back(number_of<double>(m_db, rows.get(), row, 4));
  }
  return commits;
}

std::vector<stored_trial> postgresql_history::read_test_trials(const std::string& test) {
  const pg_result rows =
      m_db.must_run(test_trials_query('$'), {test}, "cannot read the test's trials");
  std::vector<stored_trial> trials;
  for (int row = 0; row < PQntuples(rows.get()); ++row) {
    const auto run = number_of<std::int64_t>(m_db, rows.get(), row, 0);
    const auto index = number_of<int>(m_db, rows.get(), row, 8);
    if (trials.empty() || trials.back().run != run || trials.back().index != index) {
      trials.push_back({run,
                        text_of(rows.get(), row, 1),
                        text_of(rows.get(), row, 2),
                        number_of<std::int64_t>(m_db, rows.get(), row, 3),
                        text_of(rows.get(), row, 4),
                        text_of(rows.get(), row, 5),
                        text_of(rows.get(), row, 6),
                        text_of(rows.get(), row, 7),
                        index,
                        {}});
    }
    trials.back().samples.push_back({text_of(rows.get(), row, 9), text_of(rows.get(), row, 10),
                                     number_of<double>(m_db, rows.get(), row, 11)});
  }
  return trials;
}

}  // namespace

std::unique_ptr<history_store> open_postgresql_history(const std::string& url,
                                                       store_access access) {
  return std::make_unique<postgresql_history>(url, access);
}

}  // namespace aorta::detail
