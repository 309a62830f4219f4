// The rocpd reader against databases built here with SQLite's API from the published schema's
// column names (tests/fixtures/rocpd/README.md): the direct layout, a locked and a corrupt file.
#include "aorta/error.hpp"
#include "captures/rocpd_database.hpp"
#include "captures/rocpd_dispatch_sums.hpp"
#include "captures/rocpd_reader.hpp"
#include "captures/rocprof_reader.hpp"
#include "process/signal_forwarding.hpp"

#include <gtest/gtest.h>
#include <sqlite3.h>

#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

namespace {

namespace fs = std::filesystem;

class rocpd_db : public ::testing::Test {
protected:
  void SetUp() override {
    m_dir = fs::temp_directory_path() /
            (std::string("aorta_rocpd_") +
             ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(m_dir);
    fs::create_directories(m_dir);
    m_file = m_dir / "aorta_results.db";
  }
  void TearDown() override {
    if (m_db != nullptr) sqlite3_close(m_db);
    fs::remove_all(m_dir);
  }
  void exec(const std::string& sql) {
    if (m_db == nullptr) {
      ASSERT_EQ(sqlite3_open(m_file.c_str(), &m_db), SQLITE_OK);
    }
    char* error = nullptr;
    ASSERT_EQ(sqlite3_exec(m_db, sql.c_str(), nullptr, nullptr, &error), SQLITE_OK)
        << (error ? error : "") << "\n"
        << sql;
  }
  // Schema version 3, direct layout: one agent, kernels `k` (2 launches, 10 + 30 ns) and `neg`
  // (1 launch, 5 ns, no display name).
  void make_direct(const std::string& version = "3") {
    exec("CREATE TABLE rocpd_metadata_x (id INTEGER PRIMARY KEY, tag TEXT, value TEXT);"
         "CREATE VIEW rocpd_metadata AS SELECT * FROM rocpd_metadata_x;"
         "INSERT INTO rocpd_metadata_x (tag, value) VALUES ('schema_version', '" +
         version +
         "');"
         "CREATE TABLE rocpd_info_agent (id INTEGER PRIMARY KEY, guid TEXT, type TEXT, "
         "absolute_index INTEGER, type_index INTEGER, name TEXT, generic_name TEXT, "
         "product_name TEXT);"
         "INSERT INTO rocpd_info_agent VALUES (7, 'g', 'GPU', 2, 0, 'a', 'gfx942', 'MI300X');"
         "CREATE TABLE rocpd_info_kernel_symbol (id INTEGER PRIMARY KEY, guid TEXT, "
         "kernel_name TEXT, display_name TEXT);"
         "INSERT INTO rocpd_info_kernel_symbol VALUES (1, 'g', 'k.kd', 'k'), (2, 'g', 'neg.kd', "
         "'');"
         "CREATE TABLE rocpd_kernel_dispatch (id INTEGER PRIMARY KEY, guid TEXT, agent_id "
         "INTEGER, kernel_id INTEGER, start BIGINT, \"end\" BIGINT);"
         "INSERT INTO rocpd_kernel_dispatch (guid, agent_id, kernel_id, start, \"end\") VALUES "
         "('g', 7, 1, 100, 110), ('g', 7, 1, 200, 230), ('g', 7, 2, 400, 405);");
  }
  // The capture_error of read_rocpd_database under `limits`, or "no error".
  [[nodiscard]] std::string error_under(const aorta::detail::rocpd_limits& limits) const {
    aorta::detail::frame_tree_builder tree;
    std::vector<aorta::device_info> devices;
    std::vector<std::string> notes;
    try {
      aorta::detail::read_rocpd_database(m_file, tree, devices, notes, limits);
    } catch (const aorta::capture_error& e) {
      return e.what();
    }
    return "no error";
  }
  static std::string error_of(const fs::path& dir) {
    try {
      (void)aorta::read_rocprof_capture(dir);
    } catch (const aorta::capture_error& e) {
      return e.what();
    }
    return "no error";
  }

  fs::path m_dir;
  fs::path m_file;
  sqlite3* m_db = nullptr;
};

TEST_F(rocpd_db, direct_layout_sums_per_kernel_and_places_them_under_the_agent) {
  make_direct();
  const aorta::capture c = aorta::read_rocprof_capture(m_dir);
  ASSERT_EQ(c.kernels.size(), 2u);
  EXPECT_EQ(c.kernels[0].name, "k");
  EXPECT_EQ(c.kernels[0].launches, 2u);
  EXPECT_DOUBLE_EQ(c.kernels[0].total_ns, 40.0);
  // An empty display_name falls back to the symbol name.
  EXPECT_EQ(c.kernels[1].name, "neg.kd");
  ASSERT_EQ(c.frames.size(), 1u);
  EXPECT_EQ(c.frames[0].name, "gpu0");
  ASSERT_EQ(c.devices.size(), 1u);
  EXPECT_EQ(c.devices[0].id, "2");
  EXPECT_EQ(c.devices[0].properties.at("name"), "MI300X");
}

TEST_F(rocpd_db, unknown_schema_version_names_the_file_and_version) {
  make_direct("4");
  const std::string error = error_of(m_dir);
  EXPECT_NE(error.find("aorta_results.db: rocpd schema version 4 is not one aorta reads"),
            std::string::npos)
      << error;
}

TEST_F(rocpd_db, a_locked_database_says_so_and_how_to_proceed) {
  make_direct();
  exec("BEGIN EXCLUSIVE; UPDATE rocpd_kernel_dispatch SET start = start;");
  const std::string error = error_of(m_dir);
  EXPECT_NE(error.find("aorta_results.db: rocpd database"), std::string::npos) << error;
  EXPECT_NE(error.find("locked"), std::string::npos) << error;
  exec("ROLLBACK;");
}

// A read is one transaction: its statements see one state of the file, and a writer cannot
// commit between them (SQLITE_BUSY at once: the test's connection does not wait) until the read
// ends. Outside a transaction each statement took and dropped the lock, and a write could land
// between the dispatch sums and the agent queries.
TEST_F(rocpd_db, one_read_sees_one_state_of_the_file) {
  make_direct();
  const std::string insert = "INSERT INTO rocpd_kernel_dispatch (guid, agent_id, kernel_id, start, "
                             "\"end\") VALUES ('g', 7, 1, 500, 510)";
  const auto dispatches = [](aorta::detail::rocpd_database& db) {
    const aorta::detail::rocpd_stmt stmt = db.prepare("SELECT COUNT(*) FROM rocpd_kernel_dispatch");
    EXPECT_TRUE(db.step(stmt.get()));
    return sqlite3_column_int64(stmt.get(), 0);
  };
  {
    aorta::detail::rocpd_database db(m_file, aorta::detail::rocpd_limits{});
    ASSERT_EQ(dispatches(db), 3);
    EXPECT_EQ(sqlite3_exec(m_db, insert.c_str(), nullptr, nullptr, nullptr), SQLITE_BUSY);
    EXPECT_EQ(dispatches(db), 3);
  }
  exec(insert);  // the read is over: the write commits
  aorta::detail::rocpd_database db(m_file, aorta::detail::rocpd_limits{});
  EXPECT_EQ(dispatches(db), 4);
}

TEST_F(rocpd_db, a_corrupt_file_names_the_file_and_the_fix) {
  std::ofstream(m_file, std::ios::binary) << std::string(4096, '\x7f');
  const std::string error = error_of(m_dir);
  EXPECT_NE(error.find("not a SQLite database or is corrupt"), std::string::npos) << error;
}

TEST_F(rocpd_db, missing_dispatch_columns_are_listed) {
  exec("CREATE TABLE rocpd_metadata (tag TEXT, value TEXT);"
       "INSERT INTO rocpd_metadata VALUES ('schema_version', '3');"
       "CREATE TABLE rocpd_info_agent (id INTEGER);"
       "CREATE TABLE rocpd_info_kernel_symbol (id INTEGER);"
       "CREATE TABLE rocpd_kernel_dispatch (id INTEGER, kernel_id INTEGER);");
  const std::string error = error_of(m_dir);
  EXPECT_NE(error.find("found: id, kernel_id"), std::string::npos) << error;
}

// Issue 18 (14): an end before its start gave a negative total, so `rocprof_gpu_time_ms < 5`
// passed; now the capture is an error naming the kernel.
TEST_F(rocpd_db, an_end_before_its_start_is_an_error_naming_the_kernel) {
  make_direct();
  exec("UPDATE rocpd_kernel_dispatch SET \"end\" = start - 1000 WHERE id = 1;");
  const std::string error = error_of(m_dir);
  EXPECT_NE(error.find("kernel 'k': 1 dispatches end before they start"), std::string::npos)
      << error;
}

// Issue 18 (14): a NULL or text timestamp was read as 0 ms, silently.
TEST_F(rocpd_db, null_or_text_timestamps_are_errors_not_zero) {
  for (const char* bad : {"NULL", "'soon'", "1.5"}) {
    SCOPED_TRACE(bad);
    if (m_db != nullptr) sqlite3_close(m_db);
    m_db = nullptr;
    fs::remove(m_file);
    make_direct();
    exec("ALTER TABLE rocpd_kernel_dispatch RENAME TO dispatch_x;"
         "CREATE VIEW rocpd_kernel_dispatch AS SELECT id, guid, agent_id, kernel_id, "
         "CASE WHEN id = 2 THEN " +
         std::string(bad) +
         " ELSE start END AS start, \"end\" "
         "FROM dispatch_x;");
    const std::string error = error_of(m_dir);
    EXPECT_NE(error.find("kernel 'k': 1 dispatches have a start or end that is not an integer"),
              std::string::npos)
        << error;
  }
}

// Issue 18 (14): NULL kernel names merged every kernel into one named "".
TEST_F(rocpd_db, kernels_without_a_name_are_an_error) {
  make_direct();
  exec("UPDATE rocpd_info_kernel_symbol SET kernel_name = NULL, display_name = NULL;");
  const std::string error = error_of(m_dir);
  EXPECT_NE(error.find("have a kernel without a name"), std::string::npos) << error;
}

// Issue 18 (5): an endless recursive dispatch view never returned, spilled to SQLite's temp
// directory outside the output directory and ignored signals. Now the step budget ends it, and
// nothing is written to the temp directory.
TEST_F(rocpd_db, an_endless_view_ends_at_the_step_budget_without_temp_files) {
  make_direct();
  exec("ALTER TABLE rocpd_kernel_dispatch RENAME TO dispatch_x;"
       "CREATE VIEW rocpd_kernel_dispatch AS WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL "
       "SELECT i + 1 FROM n) SELECT i AS id, 'g' AS guid, 7 AS agent_id, 1 AS kernel_id, "
       "i AS start, i + 1 + (i % 977) AS \"end\" FROM n;");
  const fs::path temp = m_dir / "sqlite_tmp";
  fs::create_directories(temp);
  ::setenv("SQLITE_TMPDIR", temp.c_str(), 1);
  aorta::detail::frame_tree_builder tree;
  std::vector<aorta::device_info> devices;
  std::vector<std::string> notes;
  aorta::detail::rocpd_limits limits;
  limits.max_steps = 20'000'000;
  std::string error = "no error";
  try {
    aorta::detail::read_rocpd_database(m_file, tree, devices, notes, limits);
  } catch (const aorta::capture_error& e) {
    error = e.what();
  }
  ::unsetenv("SQLITE_TMPDIR");
  EXPECT_NE(error.find("max_vm_steps"), std::string::npos) << error;
  EXPECT_TRUE(fs::is_empty(temp));
}

// Issue 18 (5): under a sweep's signal handlers a SIGINT was only counted, so the endless view
// ran on until the 60 s budget. Now the progress handler sees the interrupt and ends the read at
// once; the interrupt stays pending for the run, which stops on it.
TEST_F(rocpd_db, an_interrupt_ends_an_endless_read_at_once_and_stays_pending) {
  make_direct();
  exec("ALTER TABLE rocpd_kernel_dispatch RENAME TO dispatch_x;"
       "CREATE VIEW rocpd_kernel_dispatch AS WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL "
       "SELECT i + 1 FROM n) SELECT i AS id, 'g' AS guid, 7 AS agent_id, 1 AS kernel_id, "
       "i AS start, i + 1 AS \"end\" FROM n;");
  aorta::detail::signal_forwarding interrupts;
  std::atomic<bool> read_ended{false};
  // Sent until the read ends, from another thread, as an interrupt comes while a read runs.
  std::thread sender([&read_ended] {
    while (!read_ended.load()) {
      std::raise(SIGINT);
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
  });
  aorta::detail::frame_tree_builder tree;
  std::vector<aorta::device_info> devices;
  std::vector<std::string> notes;
  aorta::detail::rocpd_limits limits;
  limits.max_time = std::chrono::seconds(30);
  const auto started = std::chrono::steady_clock::now();
  std::string error = "no error";
  int signal_number = 0;
  try {
    aorta::detail::read_rocpd_database(m_file, tree, devices, notes, limits);
  } catch (const aorta::interrupted_error& e) {
    error = e.what();
    signal_number = e.signal_number();
  }
  read_ended = true;
  sender.join();
  EXPECT_NE(error.find("the read was interrupted by SIGINT"), std::string::npos) << error;
  EXPECT_EQ(signal_number, SIGINT);
  EXPECT_LT(std::chrono::steady_clock::now() - started, std::chrono::seconds(20));
  EXPECT_EQ(interrupts.take_first_pending(), SIGINT);
}

// Issue 18 (6): an endless rocpd_metadata view grew a list until bad_alloc.
TEST_F(rocpd_db, an_endless_metadata_view_is_read_a_few_rows_at_most) {
  make_direct();
  exec("DROP VIEW rocpd_metadata;"
       "CREATE VIEW rocpd_metadata AS WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL "
       "SELECT i + 1 FROM n) SELECT i AS id, 'schema_version' AS tag, '3' AS value FROM n;");
  const aorta::capture c = aorta::read_rocprof_capture(m_dir);
  EXPECT_EQ(c.kernels.size(), 2u);
}

// Issue 18 (9): more than 200 k distinct (kernel, agent) rows dropped every kernel with the tree,
// and the trial failed as an empty capture under a note saying the totals were complete.
TEST_F(rocpd_db, past_the_tree_limit_the_kernel_totals_are_kept) {
  make_direct();
  exec("WITH RECURSIVE n(i) AS (SELECT 10 UNION ALL SELECT i + 1 FROM n WHERE i < 200020) "
       "INSERT INTO rocpd_info_kernel_symbol SELECT i, 'g', 'k' || i, '' FROM n;"
       "WITH RECURSIVE n(i) AS (SELECT 10 UNION ALL SELECT i + 1 FROM n WHERE i < 200020) "
       "INSERT INTO rocpd_kernel_dispatch (guid, agent_id, kernel_id, start, \"end\") "
       "SELECT 'g', 7, i, 0, 1 FROM n;");
  const aorta::capture c = aorta::read_rocprof_capture(m_dir);
  EXPECT_EQ(c.kernels.size(), 200'013u);
  EXPECT_TRUE(c.placements.empty());
  bool noted = false;
  for (const auto& n : c.notes)
    noted = noted || n.find("kernel totals are complete") != std::string::npos;
  EXPECT_TRUE(noted);
}

// Issue 21: dispatches are summed per integer (kernel id, agent) in a hash table; past
// max_groups pairs the read stops with an error naming the bound instead of growing.
TEST_F(rocpd_db, too_many_groups_is_an_error_naming_the_bound) {
  make_direct();
  aorta::detail::rocpd_limits limits;
  limits.max_groups = 1;
  const std::string error = error_under(limits);
  EXPECT_NE(error.find("more than 1 distinct (kernel, agent) pairs (rocpd_max_groups)"),
            std::string::npos)
      << error;
}

// The symbol scan had no bound of its own: an endless symbol view ran until max_time. It reads
// at most max_groups rows (one per kernel and agent), and keeps names of max_name_bytes at most.
TEST_F(rocpd_db, the_symbol_scan_stops_at_its_name_and_row_bounds) {
  make_direct();
  aorta::detail::rocpd_limits limits;
  limits.max_name_bytes = 1;  // `k`, then `neg.kd`
  std::string error = error_under(limits);
  EXPECT_NE(error.find("names total more than 1 bytes (rocpd_max_name_bytes)"), std::string::npos)
      << error;
  // Rows that never name a dispatched kernel, without end.
  exec(
      "DROP TABLE rocpd_info_kernel_symbol;"
      "CREATE VIEW rocpd_info_kernel_symbol AS WITH RECURSIVE n(i) AS (SELECT 3 UNION ALL SELECT "
      "i + 1 FROM n) SELECT i AS id, 'g' AS guid, 'x' AS kernel_name, 'x' AS display_name FROM n;");
  limits.max_time = std::chrono::seconds(5);  // main's read ended here, after 5 s
  limits.max_groups = 1000;
  error = error_under(limits);
  EXPECT_NE(error.find("rocpd_info_kernel_symbol yields more than 1000 rows (rocpd_max_groups)"),
            std::string::npos)
      << error;
}

// Issue 21: names are looked up by id after summing; a kernel id without a symbol row was
// dropped by the old join without a word. Now it is an error naming the id.
TEST_F(rocpd_db, a_kernel_id_without_a_symbol_row_is_an_error_naming_it) {
  make_direct();
  exec("INSERT INTO rocpd_kernel_dispatch (guid, agent_id, kernel_id, start, \"end\") VALUES "
       "('g', 7, 99, 500, 510);");
  const std::string error = error_of(m_dir);
  EXPECT_NE(error.find("1 dispatches have a kernel without a name (kernel id 99"),
            std::string::npos)
      << error;
}

// Bad dispatches are counted apart from the groups: the error names the first refused group in
// agent order with its own counts, whatever order the groups' problems were met in. Kernel ids
// far apart and negative are found by their symbol rows.
TEST_F(rocpd_db, each_group_reports_its_own_bad_dispatches) {
  make_direct();
  exec("INSERT INTO rocpd_info_agent VALUES (3, 'g', 'GPU', 1, 1, 'b', 'gfx942', 'MI300X');"
       "INSERT INTO rocpd_info_kernel_symbol VALUES (-9, 'g', 'far.kd', 'far'), "
       "(9000000000000, 'g', 'wide.kd', 'wide');"
       "INSERT INTO rocpd_kernel_dispatch (guid, agent_id, kernel_id, start, \"end\") VALUES "
       "('g', 7, 1, 50, 40), ('g', 7, 1, 60, 40), ('g', 3, -9, 5, 6), "
       "('g', 3, 9000000000000, 9, 8), ('g', 3, 9000000000000, 9, 8), "
       "('g', 3, 9000000000000, 9, 8);");
  const std::string error = error_of(m_dir);
  EXPECT_NE(error.find("kernel 'wide': 3 dispatches end before they start"), std::string::npos)
      << error;
}

TEST_F(rocpd_db, far_apart_and_negative_kernel_ids_are_named) {
  make_direct();
  exec("INSERT INTO rocpd_info_kernel_symbol VALUES (-9, 'g', 'far.kd', 'far'), "
       "(9000000000000, 'g', 'wide.kd', NULL);"
       "INSERT INTO rocpd_kernel_dispatch (guid, agent_id, kernel_id, start, \"end\") VALUES "
       "('g', 7, -9, 0, 1000), ('g', 7, 9000000000000, 0, 500);");
  const aorta::capture c = aorta::read_rocprof_capture(m_dir);
  ASSERT_EQ(c.kernels.size(), 4u);
  EXPECT_EQ(c.kernels[0].name, "far");
  EXPECT_EQ(c.kernels[1].name, "wide.kd");
  EXPECT_EQ(c.kernels[1].total_ns, 500.0);
}

// The same dispatches under two kernel ids with one display name, on two agents, in any row
// order: totals per name, one frame per agent in agent id order, exact to the nanosecond.
TEST_F(rocpd_db, sums_per_name_over_ids_and_agents_are_exact) {
  make_direct();
  exec("INSERT INTO rocpd_info_agent VALUES (3, 'g', 'GPU', 1, 1, 'b', 'gfx942', 'MI300X');"
       "INSERT INTO rocpd_info_kernel_symbol VALUES (5, 'g', 'k2.kd', 'k');"
       "INSERT INTO rocpd_kernel_dispatch (guid, agent_id, kernel_id, start, \"end\") VALUES "
       "('g', 3, 5, 1000000000000, 1000000000007), ('g', 7, 5, 20, 21), ('g', 3, 1, 0, 2);");
  const aorta::capture c = aorta::read_rocprof_capture(m_dir);
  ASSERT_EQ(c.kernels.size(), 2u);
  EXPECT_EQ(c.kernels[0].name, "k");
  EXPECT_EQ(c.kernels[0].launches, 5u);
  EXPECT_EQ(c.kernels[0].total_ns, 40.0 + 7.0 + 1.0 + 2.0);
  ASSERT_EQ(c.frames.size(), 2u);
  EXPECT_EQ(c.frames[0].name, "gpu1");  // agent id 3 before agent id 7
  EXPECT_EQ(c.frames[1].name, "gpu0");
  ASSERT_EQ(c.devices.size(), 2u);
}

// Issue 21: the frames per agent are made only when a check reads them (read_context's
// frames_needed); the kernel totals are the same to the nanosecond either way.
TEST_F(rocpd_db, without_a_scope_check_no_frames_and_the_same_totals) {
  make_direct();
  exec("INSERT INTO rocpd_info_agent VALUES (3, 'g', 'GPU', 1, 1, 'b', 'gfx942', 'MI300X');"
       "INSERT INTO rocpd_kernel_dispatch (guid, agent_id, kernel_id, start, \"end\") VALUES "
       "('g', 3, 1, 1000000000000, 1000000000007);");
  const aorta::capture kept = aorta::read_rocprof_capture(m_dir, true);
  const aorta::capture totals = aorta::read_rocprof_capture(m_dir, false);
  EXPECT_EQ(kept.frames.size(), 2u);
  EXPECT_FALSE(kept.placements.empty());
  EXPECT_TRUE(totals.frames.empty());
  EXPECT_TRUE(totals.placements.empty());
  ASSERT_EQ(totals.kernels.size(), kept.kernels.size());
  for (std::size_t i = 0; i < kept.kernels.size(); ++i) {
    EXPECT_EQ(totals.kernels[i].name, kept.kernels[i].name);
    EXPECT_EQ(totals.kernels[i].launches, kept.kernels[i].launches);
    EXPECT_EQ(totals.kernels[i].total_ns, kept.kernels[i].total_ns);
  }
  EXPECT_EQ(totals.kernels[0].total_ns, 10.0 + 30.0 + 7.0);
  EXPECT_EQ(totals.devices.size(), kept.devices.size());
}

// A group's count stops at its 32 bits and says so (the reader refuses the group), never wrapping
// to a kernel of no dispatches.
TEST(rocpd_dispatch_count, stops_at_its_width_and_says_so) {
  aorta::detail::dispatch_sum sum;
  sum.launches = UINT32_MAX - 1;
  aorta::detail::count_dispatch(sum);
  EXPECT_EQ(sum.launches, UINT32_MAX);
  EXPECT_EQ(sum.count_full, 0U);
  aorta::detail::count_dispatch(sum);
  EXPECT_EQ(sum.launches, UINT32_MAX);
  EXPECT_EQ(sum.count_full, 1U);
}

}  // namespace
