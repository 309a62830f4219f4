#include "history/sqlite_detector_state.hpp"

#include "aorta/error.hpp"
#include "history/detector_state_rows.hpp"
#include "history/sqlite_schema.hpp"
#include "history/sqlite_transaction.hpp"

#include <fmt/format.h>

#include <memory>

namespace aorta::detail {
namespace {

struct state_statement_finalizer {
  void operator()(sqlite3_stmt* stmt) const noexcept { sqlite3_finalize(stmt); }
};
using state_statement = std::unique_ptr<sqlite3_stmt, state_statement_finalizer>;

[[noreturn]] void fail_state(sqlite3* db, const std::string& store, std::string_view what) {
  throw error(exit_code::failed,
              fmt::format("history store {}: {}: {}; the change points are unaffected, and the "
                          "next pass tests every segment again",
                          store, what, sqlite3_errmsg(db)));
}

state_statement prepare_state(sqlite3* db, const std::string& store, std::string_view sql) {
  sqlite3_stmt* raw = nullptr;
  const int rc = sqlite3_prepare_v2(db, sql.data(), static_cast<int>(sql.size()), &raw, nullptr);
  state_statement stmt(raw);
  if (rc != SQLITE_OK) fail_state(db, store, "cannot read or save the detector's state");
  return stmt;
}

void bind_series_key(sqlite3_stmt* stmt, const series_key& key) {
  int index = 1;
  for (const std::string* part : {&key.test, &key.quantity, &key.unit, &key.card}) {
    sqlite3_bind_text(stmt, index++, part->data(), static_cast<int>(part->size()),
                      SQLITE_TRANSIENT);
  }
}

void step_state(sqlite3* db, const std::string& store, sqlite3_stmt* stmt, std::string_view what) {
  if (sqlite3_step(stmt) != SQLITE_DONE) fail_state(db, store, what);
  sqlite3_reset(stmt);
}

}  // namespace

detector_state read_sqlite_detector_state(sqlite3* db, const std::string& store,
                                          const series_key& key) {
  state_statement table = prepare_state(
      db, store, "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'detector_state'");
  if (sqlite3_step(table.get()) != SQLITE_ROW) return {};
  state_statement select = prepare_state(
      db, store,
      "SELECT first_commit, last_commit, digest, changed, change_commit, range_first, "
      "range_last, p, permutations FROM detector_state WHERE test = ?1 AND quantity = ?2 AND "
      "unit = ?3 AND card_uuid = ?4");
  bind_series_key(select.get(), key);
  detector_state state;
  int rc = SQLITE_ROW;
  while ((rc = sqlite3_step(select.get())) == SQLITE_ROW) {
    detector_state_row row;
    std::int64_t* integers[] = {&row.first,         &row.last,        &row.digest,    &row.changed,
                                &row.change_commit, &row.range_first, &row.range_last};
    for (int column = 0; column < 7; ++column)
      *integers[column] = sqlite3_column_int64(select.get(), column);
    row.p = sqlite3_column_double(select.get(), 7);
    row.permutations = sqlite3_column_int64(select.get(), 8);
    if (const auto restored = segment_of_row(row)) state.insert(*restored);
  }
  if (rc != SQLITE_DONE) fail_state(db, store, "cannot read the detector's state");
  return state;
}

void save_sqlite_detector_states(sqlite3* db, const std::string& store,
                                 const std::vector<std::pair<series_key, detector_state>>& states) {
  if (states.empty()) return;
  if (sqlite3_exec(db, "BEGIN IMMEDIATE", nullptr, nullptr, nullptr) != SQLITE_OK)
    fail_state(db, store, "cannot take the write lock to save the detector's state");
  sqlite_write_transaction transaction(db);
  if (sqlite3_exec(db, std::string(sqlite_detector_state_table).c_str(), nullptr, nullptr,
                   nullptr) != SQLITE_OK)
    fail_state(db, store, "cannot create the detector_state table");
  state_statement erase =
      prepare_state(db, store,
                    "DELETE FROM detector_state WHERE test = ?1 AND quantity = ?2 AND "
                    "unit = ?3 AND card_uuid = ?4");
  state_statement insert = prepare_state(
      db, store,
      "INSERT INTO detector_state (test, quantity, unit, card_uuid, first_commit, last_commit, "
      "digest, changed, change_commit, range_first, range_last, p, permutations) VALUES (?1, ?2, "
      "?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13)");
  for (const auto& [key, state] : states) {
    bind_series_key(erase.get(), key);
    step_state(db, store, erase.get(), "cannot replace the detector's state");
    for (const auto& [bounds, decided] : state) {
      const detector_state_row row = row_of_segment(bounds, decided);
      bind_series_key(insert.get(), key);
      const std::int64_t integers[] = {row.first,     row.last,          row.digest,
                                       row.changed,   row.change_commit, row.range_first,
                                       row.range_last};
      for (int i = 0; i < 7; ++i) sqlite3_bind_int64(insert.get(), 5 + i, integers[i]);
      sqlite3_bind_double(insert.get(), 12, row.p);
      sqlite3_bind_int64(insert.get(), 13, row.permutations);
      step_state(db, store, insert.get(), "cannot save the detector's state");
    }
  }
  if (sqlite3_exec(db, "COMMIT", nullptr, nullptr, nullptr) != SQLITE_OK)
    fail_state(db, store, "cannot commit the detector's state");
  transaction.committed();
}

}  // namespace aorta::detail
