#include "captures/rocpd_reader.hpp"

#include "aorta/error.hpp"
#include "bounded_input.hpp"
#include "captures/checked_sum.hpp"

#include <algorithm>
#include <chrono>
#include <memory>
#include <unordered_set>

#include <fmt/format.h>
#include <sqlite3.h>

namespace aorta::detail {

namespace {

namespace fs = std::filesystem;

struct db_closer {
  void operator()(sqlite3* db) const noexcept { sqlite3_close_v2(db); }
};
struct stmt_finalizer {
  void operator()(sqlite3_stmt* stmt) const noexcept { sqlite3_finalize(stmt); }
};
using db_handle = std::unique_ptr<sqlite3, db_closer>;
using stmt_handle = std::unique_ptr<sqlite3_stmt, stmt_finalizer>;

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

class database {
public:
  database(const fs::path& file, const rocpd_limits& limits) : m_file(file) {
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
    char* message = nullptr;
    const int pragma = sqlite3_exec(m_db.get(), "PRAGMA temp_store = MEMORY", nullptr, nullptr,
                                    &message);
    sqlite3_free(message);
    if (pragma != SQLITE_OK) fail(file, pragma, "cannot keep temporary storage in memory");
  }

  stmt_handle prepare(std::string_view sql) {
    sqlite3_stmt* raw = nullptr;
    const int rc =
        sqlite3_prepare_v2(m_db.get(), sql.data(), static_cast<int>(sql.size()), &raw, nullptr);
    stmt_handle stmt(raw);
    if (rc != SQLITE_OK) {
      check_budget(rc);
      fail(m_file, rc, sqlite3_errmsg(m_db.get()));
    }
    return stmt;
  }

  // Steps once: true for a row, false when done.
  bool step(sqlite3_stmt* stmt) {
    const int rc = sqlite3_step(stmt);
    if (rc == SQLITE_ROW) return true;
    if (rc == SQLITE_DONE) return false;
    check_budget(rc);
    fail(m_file, rc, sqlite3_errmsg(m_db.get()));
  }

  void check_budget(int rc) const {
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

  bool has_object(std::string_view name) {
    stmt_handle stmt = prepare("SELECT 1 FROM sqlite_master WHERE name = ?1");
    sqlite3_bind_text(stmt.get(), 1, name.data(), static_cast<int>(name.size()), SQLITE_STATIC);
    return step(stmt.get());
  }

  std::vector<std::string> columns(std::string_view table) {
    std::vector<std::string> out;
    stmt_handle stmt = prepare(fmt::format("PRAGMA table_info(`{}`)", table));
    while (step(stmt.get())) out.emplace_back(text(stmt.get(), 1));
    return out;
  }

  static std::string text(sqlite3_stmt* stmt, int column) {
    const unsigned char* value = sqlite3_column_text(stmt, column);
    return value == nullptr ? std::string() : std::string(reinterpret_cast<const char*>(value));
  }

private:
  fs::path m_file;
  db_handle m_db;
  rocpd_budget_state m_budget;
};

std::string schema_version(database& db, const fs::path& file) {
  if (!db.has_object("rocpd_metadata"))
    throw capture_error(fmt::format(
        "{}: a SQLite database without the rocpd_metadata view, so not a rocpd database of "
        "rocprofv3 (aorta reads rocpd schema version {}); point aorta at rocprofv3's "
        "<pid>_results.db or ask for output_format: csv",
        file.string(), rocpd_known_schema_version));
  // A few rows at most: an endless view must not grow a list until memory runs out.
  stmt_handle stmt =
      db.prepare("SELECT value FROM rocpd_metadata WHERE tag = 'schema_version' LIMIT 8");
  std::vector<std::string> versions;
  while (db.step(stmt.get())) versions.push_back(database::text(stmt.get(), 0));
  if (versions.empty())
    throw capture_error(fmt::format("{}: rocpd_metadata has no schema_version row; aorta reads "
                                    "rocpd schema version {} (re-run the capture, or ask "
                                    "rocprofv3 for output_format: csv)",
                                    file.string(), rocpd_known_schema_version));
  for (const std::string& version : versions) {
    if (version != rocpd_known_schema_version)
      throw capture_error(fmt::format(
          "{}: rocpd schema version {} is not one aorta reads (it reads {}); this rocprofv3 is "
          "newer or older than aorta knows: ask it for output_format: csv, or update aorta",
          file.string(), version, rocpd_known_schema_version));
  }
  return versions.front();
}

// The dispatch table's two published layouts of schema version 3.
std::string dispatch_query(database& db, const fs::path& file) {
  for (const std::string_view needed :
       {"rocpd_kernel_dispatch", "rocpd_info_kernel_symbol", "rocpd_info_agent"}) {
    if (!db.has_object(needed))
      throw capture_error(fmt::format("{}: rocpd schema version 3 database without {}; the file "
                                      "is incomplete (re-run the capture)",
                                      file.string(), needed));
  }
  const std::vector<std::string> columns = db.columns("rocpd_kernel_dispatch");
  const auto has = [&](std::string_view c) {
    return std::find(columns.begin(), columns.end(), c) != columns.end();
  };
  constexpr std::string_view select =
      "SELECT COALESCE(NULLIF(S.display_name, ''), S.kernel_name), A.id, A.type, "
      "A.type_index, A.absolute_index, COALESCE(A.product_name, A.name, ''), "
      "COALESCE(A.generic_name, ''), COUNT(*), SUM({end} - {start}), "
      "SUM(CASE WHEN {end} < {start} THEN 1 ELSE 0 END), "
      "SUM(CASE WHEN typeof({start}) = 'integer' AND typeof({end}) = 'integer' THEN 0 ELSE 1 "
      "END) "
      "FROM rocpd_kernel_dispatch K "
      "JOIN rocpd_info_kernel_symbol S ON S.id = K.kernel_id AND S.guid = K.guid ";
  constexpr std::string_view group = " GROUP BY 1, 2 ORDER BY 2, 1";
  if (has("start") && has("end") && has("agent_id")) {
    return fmt::format(select, fmt::arg("start", "K.start"), fmt::arg("end", "K.\"end\"")) +
           "LEFT JOIN rocpd_info_agent A ON A.id = K.agent_id AND A.guid = K.guid" +
           std::string(group);
  }
  if (has("start_id") && has("end_id") && has("track_id") && db.has_object("rocpd_timestamp") &&
      db.has_object("rocpd_track")) {
    return fmt::format(select, fmt::arg("start", "DS.value"), fmt::arg("end", "DE.value")) +
           "JOIN rocpd_timestamp DS ON DS.id = K.start_id AND DS.guid = K.guid "
           "JOIN rocpd_timestamp DE ON DE.id = K.end_id AND DE.guid = K.guid "
           "LEFT JOIN rocpd_track T ON T.id = K.track_id AND T.guid = K.guid "
           "LEFT JOIN rocpd_info_agent A ON A.id = T.agent_id AND A.guid = T.guid" +
           std::string(group);
  }
  throw capture_error(fmt::format(
      "{}: rocpd_kernel_dispatch has neither start/end/agent_id nor start_id/end_id/track_id "
      "columns (found: {}); this rocpd layout is not one aorta reads: ask rocprofv3 for "
      "output_format: csv",
      file.string(), fmt::join(columns, ", ")));
}

// The checked numbers of one result row (kernel, agent): every dispatch has integer start and
// end, end >= start, and the kernel a name; anything else is an error naming the kernel, since a
// NULL or text timestamp read as 0, or a negative duration, would lower a total a check compares.
struct dispatch_totals {
  std::string name;
  std::uint64_t launches = 0;
  double total_ns = 0.0;
};

dispatch_totals checked_row(sqlite3_stmt* row, const fs::path& file) {
  dispatch_totals out;
  const std::string where = file.string();
  if (sqlite3_column_type(row, 0) == SQLITE_NULL)
    throw capture_error(fmt::format(
        "{}: rocpd database: {} dispatches have a kernel without a name (NULL kernel_name and "
        "display_name); they cannot be told apart from other kernels. Fix: re-run the capture",
        where, sqlite3_column_int64(row, 7)));
  out.name = database::text(row, 0);
  const std::string field = fmt::format("kernel '{}'", out.name);
  if (const sqlite3_int64 bad = sqlite3_column_int64(row, 10); bad != 0)
    throw capture_error(fmt::format(
        "{}: rocpd database: {}: {} dispatches have a start or end that is not an integer "
        "timestamp (NULL, text or real); their durations are unknown. Fix: re-run the capture",
        where, field, bad));
  if (const sqlite3_int64 negative = sqlite3_column_int64(row, 9); negative != 0)
    throw capture_error(fmt::format("{}: rocpd database: {}: {} dispatches end before they "
                                    "start; their durations are negative. Fix: re-run the capture",
                                    where, field, negative));
  out.launches = checked_count(static_cast<std::uint64_t>(sqlite3_column_int64(row, 7)), where,
                               field + " dispatch count");
  if (sqlite3_column_type(row, 8) != SQLITE_INTEGER)
    throw capture_error(fmt::format("{}: rocpd database: {}: the summed duration is not an "
                                    "integer number of ns",
                                    where, field));
  out.total_ns = checked_duration(static_cast<double>(sqlite3_column_int64(row, 8)), where,
                                  field + " time (ns)");
  return out;
}

}  // namespace

void read_rocpd_database(const fs::path& file, frame_tree_builder& tree,
                         std::vector<device_info>& devices, std::vector<std::string>& notes,
                         const rocpd_limits& limits) {
  database db(file, limits);
  (void)schema_version(db, file);
  stmt_handle stmt = db.prepare(dispatch_query(db, file));
  tree.set_source(file.string());
  // A set, not a walk over `devices` per row: 50,000 agents made that quadratic.
  std::unordered_set<std::string> seen_agents;
  for (const device_info& d : devices)
    if (d.type == "HIP") seen_agents.insert(d.id);
  while (db.step(stmt.get())) {
    const dispatch_totals row = checked_row(stmt.get(), file);
    const std::string& name = row.name;
    const bool has_agent = sqlite3_column_type(stmt.get(), 1) != SQLITE_NULL;
    const std::string type = database::text(stmt.get(), 2);
    const std::string type_index = database::text(stmt.get(), 3);
    std::size_t frame = context_frame::no_parent;
    if (has_agent) {
      const std::string agent = fmt::format("{}{}", type == "CPU" ? "cpu" : "gpu", type_index);
      frame = tree.child(context_frame::no_parent, agent);
      const std::string id = database::text(stmt.get(), 4);
      if (seen_agents.insert(id).second) {
        device_info device{"HIP", id, {}};
        device.properties.emplace("name", database::text(stmt.get(), 5));
        device.properties.emplace("arch", database::text(stmt.get(), 6));
        devices.push_back(std::move(device));
      }
    } else {
      notes.push_back(
          fmt::format("{}: kernel '{}': dispatches without an agent row", file.string(), name));
    }
    tree.add_kernel(frame, name, row.launches, row.total_ns);
  }
}

}  // namespace aorta::detail
