// The SQLite history store and the ingest of sweep outputs: idempotent, all-or-nothing adds,
// refusal of files that are not a store of this schema version (left byte for byte as they were),
// and hostile result.json files refused naming the file.
#include "aorta/error.hpp"
#include "history/history_store.hpp"
#include "history/run_ingest.hpp"

#include <gtest/gtest.h>
#include <sqlite3.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

namespace aorta::detail {
namespace {
namespace fs = std::filesystem;

fs::path fresh_dir(const std::string& name) {
  const fs::path dir = fs::temp_directory_path() / ("aorta-history-" + name);
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

void write_text(const fs::path& file, const std::string& text) {
  fs::create_directories(file.parent_path());
  std::ofstream(file, std::ios::binary) << text;
}

std::string read_text(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

std::string result_json(int trial, double time_ms, const std::string& extra_metric = "") {
  return "{\"schema\":\"aorta-result\",\"schema_version\":1,\"trial_index\":" +
         std::to_string(trial) + ",\"verdict\":\"pass\",\"started_at\":\"2026-12-01T00:00:0" +
         std::to_string(trial) +
         "Z\",\"wall_seconds\":1.5,\"versions\":{\"aorta\":\"0.1.0\",\"gpu\":\"NVIDIA H200, "
         "580.1\",\"gpu_uuid\":\"GPU-1\"},\"metrics\":{\"x_gpu_time_ms\":" +
         std::to_string(time_ms) + extra_metric +
         "},\"kernels\":[{\"name\":\"k\",\"launches\":2,\"total_ms\":" + std::to_string(time_ms) +
         ",\"collector\":\"x\"}]}";
}

fs::path sweep(const fs::path& root, const std::string& test, int trials, double time_ms) {
  for (int t = 0; t < trials; ++t) {
    write_text(root / test / ("trial_" + std::to_string(t)) / "result.json",
               result_json(t, time_ms + t * 0.001));
  }
  return root / test;
}

ingest_context at_commit(const std::string& commit, std::int64_t when) {
  return {commit, "main", "2026-12-01T00:00:00Z", when};
}

std::int64_t count_rows(const fs::path& store, const std::string& table) {
  sqlite3* db = nullptr;
  sqlite3_open_v2(store.c_str(), &db, SQLITE_OPEN_READONLY, nullptr);
  sqlite3_stmt* stmt = nullptr;
  sqlite3_prepare_v2(db, ("SELECT count(*) FROM " + table).c_str(), -1, &stmt, nullptr);
  sqlite3_step(stmt);
  const auto rows = sqlite3_column_int64(stmt, 0);
  sqlite3_finalize(stmt);
  sqlite3_close(db);
  return rows;
}

TEST(HistoryStore, AddsEveryTrialSampleOnceAndReadsSeriesInCommitOrder) {
  const fs::path dir = fresh_dir("add");
  const fs::path store = dir / "h.sqlite";
  const auto b = read_history_runs({sweep(dir / "b", "gemm", 3, 2.0)}, at_commit("bbb", 200));
  const auto a = read_history_runs({sweep(dir / "a", "gemm", 3, 1.0)}, at_commit("aaa", 100));
  ASSERT_EQ(a.size(), 1U);
  EXPECT_EQ(a[0].test, "gemm");
  EXPECT_EQ(a[0].card_uuid, "GPU-1");
  EXPECT_EQ(a[0].card_model, "NVIDIA H200");
  EXPECT_EQ(a[0].card_driver, "580.1");
  EXPECT_EQ(a[0].tool_versions.count("aorta"), 0U);
  // x_gpu_time_ms, time_ms(k), count(k), wall_seconds per trial.
  ASSERT_EQ(a[0].trials.size(), 3U);
  EXPECT_EQ(a[0].trials[0].samples.size(), 4U);
  {
    auto history = open_history_store(store.string(), store_access::read_write);
    EXPECT_EQ(history->add_runs(b).runs_added, 1);
    const auto outcome = history->add_runs(a);
    EXPECT_EQ(outcome.runs_added, 1);
    EXPECT_EQ(outcome.samples_added, 12);
    const auto again = history->add_runs(a);
    EXPECT_EQ(again.runs_added, 0);
    EXPECT_EQ(again.runs_already_present, 1);
  }
  EXPECT_EQ(count_rows(store, "samples"), 24);
  EXPECT_EQ(count_rows(store, "runs"), 2);
  auto reader = open_history_store(store.string(), store_access::read_only);
  const auto keys = reader->series("gemm", "time_ms(k)");
  ASSERT_EQ(keys.size(), 1U);
  EXPECT_EQ(keys[0].unit, "ms");
  EXPECT_EQ(keys[0].card, "GPU-1");
  const auto commits = reader->read_series(keys[0]);
  ASSERT_EQ(commits.size(), 2U);
  EXPECT_EQ(commits[0].commit, "aaa");  // older by time, though added second
  EXPECT_EQ(commits[0].samples, (std::vector<double>{1.0, 1.001, 1.002}));
  EXPECT_EQ(commits[1].commit, "bbb");
  EXPECT_EQ(reader->series("", "").size(), 4U);
}

TEST(HistoryStore, AMultiRankTrialAddsEachRanksOwnSeries) {
  const fs::path dir = fresh_dir("ranks");
  std::string json = result_json(0, 3.0);
  json.pop_back();  // the closing brace: two rank rows follow
  json += ",\"ranks\":[{\"rank\":0,\"host\":\"a\",\"collector\":\"x\",\"time_ms\":1.0,"
          "\"metrics\":{\"x_gpu_time_ms\":1.0},\"kernels\":{\"k\":{\"launches\":1,"
          "\"time_ms\":1.0}}},{\"rank\":1,\"host\":\"a\",\"collector\":\"x\",\"time_ms\":2.0,"
          "\"metrics\":{\"x_gpu_time_ms\":2.0},\"kernels\":{\"k\":{\"launches\":null,"
          "\"time_ms\":2.0}}}]}";
  write_text(dir / "r" / "gemm" / "trial_0" / "result.json", json);
  const auto runs = read_history_runs({dir / "r" / "gemm"}, at_commit("aaa", 100));
  ASSERT_EQ(runs.size(), 1U);
  std::map<std::string, std::pair<std::string, double>> samples;
  for (const auto& sample : runs[0].trials[0].samples) {
    samples[sample.quantity] = {sample.unit, sample.value};
  }
  EXPECT_EQ(samples.at("rank 1: time_ms(k)"), (std::pair<std::string, double>{"ms", 2.0}));
  EXPECT_EQ(samples.at("rank 0: count(k)"), (std::pair<std::string, double>{"count", 1.0}));
  EXPECT_EQ(samples.at("rank 1: x_gpu_time_ms").second, 2.0);
  // Rank 1's launch count is unknown: no count sample, never a 0.
  EXPECT_EQ(samples.count("rank 1: count(k)"), 0U);
  // The sum's series are there as before.
  EXPECT_EQ(samples.at("time_ms(k)").second, 3.0);
}

TEST(HistoryStore, AFailedAddLeavesTheStoreAsItWas) {
  const fs::path dir = fresh_dir("atomic");
  const fs::path store = dir / "h.sqlite";
  auto runs = read_history_runs({sweep(dir / "a", "gemm", 2, 1.0)}, at_commit("aaa", 100));
  auto broken = read_history_runs({sweep(dir / "b", "conv", 2, 1.0)}, at_commit("aaa", 100));
  // The second run names one quantity twice in a trial: the store's key refuses it mid-add.
  broken[0].trials[1].samples.push_back(broken[0].trials[1].samples.front());
  runs.push_back(broken[0]);
  auto history = open_history_store(store.string(), store_access::read_write);
  EXPECT_THROW((void)history->add_runs(runs), error);
  EXPECT_EQ(count_rows(store, "runs"), 0);
  EXPECT_EQ(count_rows(store, "samples"), 0);
  runs.pop_back();
  EXPECT_EQ(history->add_runs(runs).runs_added, 1);
}

TEST(HistoryStore, RefusesWhatIsNotAStoreOfThisVersionAndLeavesItUntouched) {
  const fs::path dir = fresh_dir("refuse");
  const fs::path text = dir / "notes.txt";
  const std::string notes(4096, 'x');
  write_text(text, notes);
  try {
    (void)open_history_store(text.string(), store_access::read_write);
    FAIL() << "a text file was opened as a store";
  } catch (const error& e) {
    EXPECT_NE(std::string(e.what()).find("not an aorta history store"), std::string::npos)
        << e.what();
  }
  EXPECT_EQ(read_text(text), notes);

  const fs::path other = dir / "other.sqlite";
  sqlite3* db = nullptr;
  sqlite3_open(other.c_str(), &db);
  sqlite3_exec(db, "CREATE TABLE t (x INTEGER)", nullptr, nullptr, nullptr);
  sqlite3_close(db);
  EXPECT_THROW((void)open_history_store(other.string(), store_access::read_write), error);

  const fs::path newer = dir / "newer.sqlite";
  (void)open_history_store(newer.string(), store_access::read_write);
  sqlite3_open(newer.c_str(), &db);
  sqlite3_exec(db, "UPDATE schema_version SET version = 2", nullptr, nullptr, nullptr);
  sqlite3_close(db);
  const std::string before = read_text(newer);
  try {
    (void)open_history_store(newer.string(), store_access::read_write);
    FAIL() << "a version 2 store was opened";
  } catch (const error& e) {
    EXPECT_NE(std::string(e.what()).find("schema version 2"), std::string::npos) << e.what();
  }
  EXPECT_EQ(read_text(newer), before);

  EXPECT_THROW((void)open_history_store((dir / "absent.sqlite").string(), store_access::read_only),
               error);
  // A postgresql:// URL is the PostgreSQL store's: tests/unit/history_postgresql_test.cpp.
}

TEST(HistoryStore, RowsCannotBeRewritten) {
  const fs::path dir = fresh_dir("append");
  const fs::path store = dir / "h.sqlite";
  auto history = open_history_store(store.string(), store_access::read_write);
  (void)history->add_runs(read_history_runs({sweep(dir / "a", "gemm", 1, 1.0)}, at_commit("a", 1)));
  sqlite3* db = nullptr;
  sqlite3_open(store.c_str(), &db);
  EXPECT_NE(sqlite3_exec(db, "UPDATE samples SET value = 0", nullptr, nullptr, nullptr), SQLITE_OK);
  EXPECT_NE(sqlite3_exec(db, "DELETE FROM runs", nullptr, nullptr, nullptr), SQLITE_OK);
  sqlite3_close(db);
}

void expect_refused(const fs::path& root, const std::string& text, const std::string& words) {
  write_text(root / "t" / "trial_0" / "result.json", text);
  try {
    (void)read_history_runs({root}, at_commit("a", 1));
    FAIL() << "accepted: " << text.substr(0, 80);
  } catch (const error& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find((root / "t" / "trial_0" / "result.json").string()), std::string::npos)
        << message;
    EXPECT_NE(message.find(words), std::string::npos) << message;
  }
}

TEST(HistoryIngest, RefusesDamagedAndHostileResultsNamingTheFile) {
  const fs::path dir = fresh_dir("hostile");
  expect_refused(dir / "a", result_json(0, 1.0).substr(0, 50), "not valid JSON");
  expect_refused(dir / "b", std::string(100000, '[') + std::string(100000, ']'), "not valid JSON");
  expect_refused(dir / "c", result_json(0, 1.0, ",\"huge\":1e400"), "not valid JSON");
  expect_refused(dir / "d", result_json(0, 1.0, ",\"time_ms(k)\":3"), "appears twice");
  expect_refused(dir / "e", "{\"schema\":\"aorta-result\",\"schema_version\":9}",
                 "schema_version 9");
  expect_refused(dir / "f", "{\"schema\":\"aorta-result\",\"metrics\":7}", "metrics");
  fs::create_directories(dir / "g");
  EXPECT_THROW((void)read_history_runs({dir / "g"}, at_commit("a", 1)), error);
  // A refused run's <output>/result.json beside trial_0/: both are trial 0 of one test.
  write_text(dir / "h" / "t" / "trial_0" / "result.json", result_json(0, 1.0));
  write_text(dir / "h" / "t" / "result.json", result_json(0, 1.0));
  try {
    (void)read_history_runs({dir / "h"}, at_commit("a", 1));
    FAIL() << "two files of one trial were accepted";
  } catch (const error& e) {
    EXPECT_NE(std::string(e.what()).find("are both trial 0"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace aorta::detail
