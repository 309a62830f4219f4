#include "captures/rocpd_database.hpp"

#include "aorta/error.hpp"
#include "bounded_input.hpp"
#include "process/signal_forwarding.hpp"

#include <chrono>

#include <fmt/format.h>

namespace aorta::detail {

namespace {

namespace fs = std::filesystem;

[[noreturn]] void fail(const fs::path& file, int code, std::string_view detail) {
  std::string fix;
  switch (code & 0xff) {
  case SQLITE_BUSY:
  case SQLITE_LOCKED:
    fix = "the database is locked: rocprofv3 (or another process) is still writing it; wait for "
          "the profiled process to exit, or copy the file and point aorta at the copy";
    break;
  case SQLITE_NOTADB:
  case SQLITE_CORRUPT:
    fix = "the file is not a SQLite database or is corrupt (a crashed or killed rocprofv3 leaves "
          "a truncated file); re-run the capture, or ask rocprofv3 for output_format: csv";
    break;
  case SQLITE_CANTOPEN:
  case SQLITE_PERM:
  case SQLITE_READONLY: fix = "check that the file exists and is readable"; break;
  default: fix = "re-run the capture; if it persists, ask rocprofv3 for output_format: csv"; break;
  }
  throw capture_error(fmt::format("{}: rocpd database: {} ({}); {}", file.string(), detail,
                                  sqlite3_errstr(code), fix));
}

// Called every rocpd_progress_steps virtual-machine steps; non-zero interrupts the statement. A
// database is input like any other: its views can be endless recursive queries.
int over_budget(void* budget_state) {
  auto& budget = *static_cast<rocpd_budget_state*>(budget_state);
  if ((budget.interrupted_by = interrupt_in_this_command()) != 0) {
    budget.exceeded = "interrupted";
    return 1;
  }
  budget.steps += rocpd_progress_steps;
  if (budget.steps > budget.limits.max_steps) {
    budget.exceeded = "max_vm_steps";
    return 1;
  }
  if (std::chrono::steady_clock::now() - budget.started > budget.limits.max_time) {
    budget.exceeded = "max_time";
    return 1;
  }
  return 0;
}

}  // namespace

rocpd_database::rocpd_database(const fs::path& file, const rocpd_limits& limits) : m_file(file) {
  try {
    require_regular_file(file);
  } catch (const input_error& e) {
    throw capture_error(e.what());
  }
  // Process-wide, and only rocpd reads use SQLite: past it SQLite fails with SQLITE_NOMEM
  // instead of growing until aorta dies.
  sqlite3_hard_heap_limit64(static_cast<sqlite3_int64>(limits.max_heap_bytes));
  sqlite3* raw = nullptr;
  // Read-only and no mutex: aorta never writes a capture, and one thread reads it.
  const int rc =
      sqlite3_open_v2(file.c_str(), &raw, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, nullptr);
  m_db.reset(raw);
  if (rc != SQLITE_OK) fail(file, rc, "cannot open");
  sqlite3_busy_timeout(m_db.get(), 2000);
  sqlite3_extended_result_codes(m_db.get(), 1);
  m_budget.limits = limits;
  m_budget.started = std::chrono::steady_clock::now();
  sqlite3_progress_handler(m_db.get(), static_cast<int>(rocpd_progress_steps), over_budget,
                           &m_budget);
  // Sorting and grouping never spill to SQLite's temp directory, outside the output directory;
  // in memory they count against the heap limit.
  pragma("PRAGMA temp_store = MEMORY", "cannot keep temporary storage in memory");
  pragma(fmt::format("PRAGMA cache_size = -{}", rocpd_cache_kib).c_str(),
         "cannot size the page cache");
  // One read transaction for the whole read (closing the connection ends it). Outside one, each
  // statement takes the file's shared lock, looks for a hot journal and drops the lock again:
  // four fcntl and three stat calls per statement, which for 50,000 agents' point queries were
  // half of the read's time, in the kernel. Deferred: no lock is taken before the first read.
  pragma("BEGIN DEFERRED", "cannot begin a read transaction");
}

void rocpd_database::release_cache() {
  pragma(fmt::format("PRAGMA cache_size = -{}", rocpd_small_cache_kib).c_str(),
         "cannot size the page cache");
  sqlite3_db_release_memory(m_db.get());
}

void rocpd_database::pragma(const char* sql, std::string_view what) {
  char* message = nullptr;
  const int rc = sqlite3_exec(m_db.get(), sql, nullptr, nullptr, &message);
  sqlite3_free(message);
  if (rc != SQLITE_OK) fail(m_file, rc, what);
}

rocpd_stmt rocpd_database::prepare(std::string_view sql) {
  sqlite3_stmt* raw = nullptr;
  const int rc =
      sqlite3_prepare_v2(m_db.get(), sql.data(), static_cast<int>(sql.size()), &raw, nullptr);
  rocpd_stmt stmt(raw);
  if (rc != SQLITE_OK) {
    check_budget(rc);
    fail(m_file, rc, sqlite3_errmsg(m_db.get()));
  }
  return stmt;
}

bool rocpd_database::step(sqlite3_stmt* stmt) {
  const int rc = sqlite3_step(stmt);
  if (rc == SQLITE_ROW) return true;
  if (rc == SQLITE_DONE) return false;
  check_budget(rc);
  fail(m_file, rc, sqlite3_errmsg(m_db.get()));
}

void rocpd_database::check_budget(int rc) const {
  if ((rc & 0xff) == SQLITE_INTERRUPT && m_budget.interrupted_by != 0)
    throw interrupted_error(
        m_budget.interrupted_by,
        fmt::format(
            "{}: rocpd database: the read was interrupted by {} after {:.1f} s; nothing of "
            "this file was summed. Fix: none needed if the interrupt was meant; else let the "
            "read finish",
            m_file.string(), signal_label(m_budget.interrupted_by),
            std::chrono::duration<double>(std::chrono::steady_clock::now() - m_budget.started)
                .count()));
  if ((rc & 0xff) == SQLITE_INTERRUPT && m_budget.exceeded != nullptr)
    throw capture_error(fmt::format(
        "{}: rocpd database: reading it took more than {} ({}, aorta's limit on one rocpd "
        "read); rocprofv3 writes plain tables and views that answer in seconds, so this file's "
        "views are endless or hostile. Fix: re-run the capture, or ask rocprofv3 for "
        "output_format: csv",
        m_file.string(),
        std::string_view(m_budget.exceeded) == "max_time"
            ? fmt::format("{} s", m_budget.limits.max_time.count())
            : fmt::format("{} virtual-machine steps", m_budget.limits.max_steps),
        m_budget.exceeded));
  if ((rc & 0xff) == SQLITE_NOMEM)
    throw capture_error(fmt::format(
        "{}: rocpd database: reading it needed more than {} bytes (max_heap_bytes, aorta's "
        "limit on SQLite's memory); the file's views are endless or hostile. Fix: re-run the "
        "capture, or ask rocprofv3 for output_format: csv",
        m_file.string(), m_budget.limits.max_heap_bytes));
}

bool rocpd_database::has_object(std::string_view name) {
  rocpd_stmt stmt = prepare("SELECT 1 FROM sqlite_master WHERE name = ?1");
  sqlite3_bind_text(stmt.get(), 1, name.data(), static_cast<int>(name.size()), SQLITE_STATIC);
  return step(stmt.get());
}

std::vector<std::string> rocpd_database::columns(std::string_view table) {
  std::vector<std::string> out;
  rocpd_stmt stmt = prepare(fmt::format("PRAGMA table_info(`{}`)", table));
  while (step(stmt.get())) out.emplace_back(text(stmt.get(), 1));
  return out;
}

std::string rocpd_database::text(sqlite3_stmt* stmt, int column) {
  const unsigned char* value = sqlite3_column_text(stmt, column);
  return value == nullptr ? std::string() : std::string(reinterpret_cast<const char*>(value));
}

}  // namespace aorta::detail
