// The rocpd reader against databases built here with SQLite's API from the published schema's
// column names (tests/fixtures/rocpd/README.md): the direct layout, a locked and a corrupt file.
#include "aorta/error.hpp"
#include "captures/rocprof_reader.hpp"

#include <gtest/gtest.h>
#include <sqlite3.h>

#include <filesystem>
#include <fstream>
#include <string>

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
  // (end before start).
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
         "('g', 7, 1, 100, 110), ('g', 7, 1, 200, 230), ('g', 7, 2, 500, 400);");
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
  bool noted = false;
  for (const auto& n : c.notes)
    noted = noted || n.find("end before they start") != std::string::npos;
  EXPECT_TRUE(noted);
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

}  // namespace
