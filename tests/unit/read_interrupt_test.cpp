// A sweep interrupted while a reader reads (a rocpd read sees SIGINT/SIGTERM/SIGHUP and stops):
// the trial is an `error` interrupted by that signal, as an interrupted payload is, and never a
// failed check; an interrupted multi-rank trial stays an error when its ranks are missing.
#include "aorta/collector.hpp"
#include "aorta/error.hpp"
#include "aorta/recipe.hpp"
#include "aorta/trial_record.hpp"
#include "evaluation/capture_evaluation.hpp"
#include "process/signal_forwarding.hpp"
#include "reporting/reporter.hpp"
#include "sweep/rank_trial.hpp"

#include <gtest/gtest.h>
#include <sqlite3.h>

#include <atomic>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

namespace {

namespace fs = std::filesystem;
using namespace aorta;

// A schema version 3 rocpd database whose dispatch view is an endless recursive query: only an
// interrupt (or the 60 s budget) ends its read.
void write_endless_rocpd(const fs::path& file) {
  fs::create_directories(file.parent_path());
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(file.c_str(), &db), SQLITE_OK);
  char* error = nullptr;
  const int rc = sqlite3_exec(
      db,
      "CREATE TABLE rocpd_metadata (id INTEGER PRIMARY KEY, tag TEXT, value TEXT);"
      "INSERT INTO rocpd_metadata (tag, value) VALUES ('schema_version', '3');"
      "CREATE TABLE rocpd_info_agent (id INTEGER PRIMARY KEY, guid TEXT, type TEXT, "
      "absolute_index INTEGER, type_index INTEGER, name TEXT, generic_name TEXT, "
      "product_name TEXT);"
      "INSERT INTO rocpd_info_agent VALUES (7, 'g', 'GPU', 0, 0, 'a', 'gfx942', 'MI300X');"
      "CREATE TABLE rocpd_info_kernel_symbol (id INTEGER PRIMARY KEY, guid TEXT, "
      "kernel_name TEXT, display_name TEXT);"
      "INSERT INTO rocpd_info_kernel_symbol VALUES (1, 'g', 'k.kd', 'k');"
      "CREATE VIEW rocpd_kernel_dispatch AS WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL "
      "SELECT i + 1 FROM n) SELECT i AS id, 'g' AS guid, 7 AS agent_id, 1 AS kernel_id, "
      "i AS start, i + 1 AS \"end\" FROM n;",
      nullptr, nullptr, &error);
  EXPECT_EQ(rc, SQLITE_OK) << (error != nullptr ? error : "");
  sqlite3_free(error);
  sqlite3_close(db);
}

// Runs `read` under a sweep's signal handlers while SIGINT is raised until it returns, from
// another thread, as an interrupt comes while a read runs.
template <typename Read> void read_while_interrupted(Read read) {
  detail::signal_forwarding interrupts;
  std::atomic<bool> read_ended{false};
  std::thread sender([&read_ended] {
    while (!read_ended.load()) {
      std::raise(SIGINT);
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
  });
  read();
  read_ended = true;
  sender.join();
  static_cast<void>(interrupts.take_pending());
}

class read_interrupt : public ::testing::Test {
protected:
  void SetUp() override {
    m_dir = fs::temp_directory_path() /
            (std::string("aorta_read_interrupt_") +
             ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(m_dir);
    fs::create_directories(m_dir);
    m_spec.collect.push_back(collector_request{});
    m_spec.collect.back().name = "rocprof";
    m_spec.collect.back().config = config_of(m_spec.collect.back());
    m_record.verdict = verdict::pass;
  }
  void TearDown() override { fs::remove_all(m_dir); }

  void expect_interrupted_error() const {
    EXPECT_EQ(to_string(m_record.verdict), "error") << m_record.reason;
    EXPECT_EQ(m_record.interrupted_by, SIGINT);
    EXPECT_TRUE(m_record.reason.starts_with("interrupted: aorta received SIGINT")) << m_record.reason;
    EXPECT_NE(m_record.reason.find("the read was interrupted by SIGINT"), std::string::npos)
        << m_record.reason;
  }

  fs::path m_dir;
  recipe m_spec;
  trial_record m_record;
};

TEST_F(read_interrupt, AnInterruptedCaptureReadIsAnErrorNotAFailedCheck) {
  write_endless_rocpd(m_dir / "rocprof" / "aorta_results.db");
  std::vector<capture> captures;
  read_while_interrupted([&] {
    detail::read_captures({detail::capture_source{&m_spec.collect.front(), m_dir / "rocprof"}},
                          {}, false, m_record, captures);
  });
  expect_interrupted_error();
  EXPECT_TRUE(captures.empty());
}

TEST_F(read_interrupt, AnInterruptedRankReadIsAnErrorNotAFailedCheck) {
  fs::create_directories(m_dir / "rank_0");
  std::ofstream(m_dir / "rank_0" / "rank.json")
      << R"({"host": "h", "variable": "RANK", "rank": 0, "pid": 1})";
  write_endless_rocpd(m_dir / "rank_0" / "rocprof" / "aorta_results.db");
  std::vector<capture> summed;
  aorta::reporting::silent_reporter out;
  read_while_interrupted([&] {
    static_cast<void>(detail::record_rank_captures(m_spec, m_dir, 1, m_record, summed, out, false));
  });
  expect_interrupted_error();
}

// One baseline per command: a signal caught before the database was opened (during the capture
// directory scan, say) stops the read too. The reader took its own baseline when it opened the
// database, so it read the endless view until its 60 s limit and failed on max_time instead.
TEST_F(read_interrupt, AnInterruptEarlierInTheCommandStopsTheRead) {
  write_endless_rocpd(m_dir / "rocprof" / "aorta_results.db");
  std::vector<capture> captures;
  detail::signal_forwarding interrupts;  // the command begins
  std::raise(SIGINT);
  detail::read_captures({detail::capture_source{&m_spec.collect.front(), m_dir / "rocprof"}}, {},
                        false, m_record, captures);
  expect_interrupted_error();
  EXPECT_EQ(interrupts.take_first_pending(), SIGINT);
}

// The payload got the signal first: its reason stays, the read it stopped too is a note.
TEST_F(read_interrupt, AReadStoppedAfterAnInterruptedPayloadKeepsThePayloadsReason) {
  m_record.verdict = verdict::error;
  m_record.interrupted_by = SIGTERM;
  m_record.reason = "interrupted: aorta received SIGTERM after 1.0 s and passed it on";
  detail::record_interrupted_read(SIGTERM, "x.db: the read was interrupted by SIGTERM", m_record);
  EXPECT_EQ(to_string(m_record.verdict), "error");
  EXPECT_EQ(m_record.interrupted_by, SIGTERM);
  EXPECT_EQ(m_record.reason, "interrupted: aorta received SIGTERM after 1.0 s and passed it on");
  ASSERT_EQ(m_record.notes.size(), 1u);
  EXPECT_NE(m_record.notes[0].find("x.db: the read was interrupted by SIGTERM"), std::string::npos);
}

// The payload was interrupted (trial_runner's judge_exit): ranks that never wrote are the
// interrupt's doing, kept as notes, and the verdict stays `error`.
TEST_F(read_interrupt, MissingRanksOfAnInterruptedTrialLeaveItAnError) {
  m_record.verdict = verdict::error;
  m_record.interrupted_by = SIGTERM;
  m_record.reason = "interrupted: aorta received SIGTERM";
  std::vector<capture> summed;
  aorta::reporting::silent_reporter out;
  static_cast<void>(detail::record_rank_captures(m_spec, m_dir, 2, m_record, summed, out, false));
  EXPECT_EQ(to_string(m_record.verdict), "error");
  EXPECT_EQ(m_record.reason, "interrupted: aorta received SIGTERM");
  EXPECT_FALSE(m_record.notes.empty());
}

}  // namespace
