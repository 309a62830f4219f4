// What an SQLite history store's writers share: the transaction that rolls back unless
// committed, and the fix a failure's message names (sqlite_history_store.cpp,
// sqlite_detector_state.cpp).
#pragma once

#include <sqlite3.h>

#include <string>

namespace aorta::detail {

// Rolls back unless committed: an exception (or a signal's unwind) between BEGIN and COMMIT leaves
// the store as it was.
class sqlite_write_transaction {
public:
  explicit sqlite_write_transaction(sqlite3* db) : m_db(db) {}
  sqlite_write_transaction(const sqlite_write_transaction&) = delete;
  sqlite_write_transaction& operator=(const sqlite_write_transaction&) = delete;
  ~sqlite_write_transaction() {
    if (!m_committed) sqlite3_exec(m_db, "ROLLBACK", nullptr, nullptr, nullptr);
  }
  void committed() noexcept { m_committed = true; }

private:
  sqlite3* m_db;
  bool m_committed = false;
};

// The fix for an SQLite result `code` (busy, not a database, read-only, disk full...), for the
// message that names the store; `busy_timeout_ms` is how long the writer waited for the lock.
[[nodiscard]] std::string sqlite_failure_fix(int code, int busy_timeout_ms);

}  // namespace aorta::detail
