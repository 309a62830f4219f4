// One rocpd database opened for reading under aorta's bounds (rocpd_limits): read-only, no mutex,
// temporary storage in memory, a page cache sized for one pass over the dispatch table, a step and
// time budget and a heap limit. Every failure is a capture_error naming the file and the fix.
#pragma once

#include "captures/rocpd_reader.hpp"

#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <sqlite3.h>

namespace aorta::detail {

struct rocpd_stmt_finalizer {
  void operator()(sqlite3_stmt* stmt) const noexcept { sqlite3_finalize(stmt); }
};
using rocpd_stmt = std::unique_ptr<sqlite3_stmt, rocpd_stmt_finalizer>;

// SQLite's page cache for one read, in KiB (PRAGMA cache_size = -N): the dispatch and symbol
// tables are each read once in rowid order and nothing is sorted in SQL, so a larger cache buys
// nothing but memory (16 MiB filled to its size on a 20 MB file, for no time saved).
inline constexpr int rocpd_cache_kib = 2 * 1024;
// The page cache after the dispatch scan, in KiB: the symbol scan reads each page once and the
// agent queries a few pages, so they run as fast on a few pages as on 2 MiB.
inline constexpr int rocpd_small_cache_kib = 64;

class rocpd_database {
public:
  rocpd_database(const std::filesystem::path& file, const rocpd_limits& limits);

  [[nodiscard]] rocpd_stmt prepare(std::string_view sql);
  // Steps once: true for a row, false when done.
  bool step(sqlite3_stmt* stmt);
  [[nodiscard]] bool has_object(std::string_view name);
  [[nodiscard]] std::vector<std::string> columns(std::string_view table);
  [[nodiscard]] static std::string text(sqlite3_stmt* stmt, int column);
  [[nodiscard]] const std::filesystem::path& file() const noexcept { return m_file; }
  // Gives the page cache's unused pages back to the heap and keeps it at rocpd_small_cache_kib
  // from then on, once the dispatch scan is done: the 2 MiB would otherwise stay beside every
  // kernel name at the read's peak.
  void release_cache();

private:
  struct closer {
    void operator()(sqlite3* db) const noexcept { sqlite3_close_v2(db); }
  };
  void check_budget(int rc) const;
  void pragma(const char* sql, std::string_view what);

  std::filesystem::path m_file;
  std::unique_ptr<sqlite3, closer> m_db;
  rocpd_budget_state m_budget;
};

}  // namespace aorta::detail
