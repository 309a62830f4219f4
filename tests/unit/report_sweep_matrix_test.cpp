// `aorta report` over the output of a sweep with cells: the sweep's matrix.json holds verdicts no
// result.json holds (checks over cells, confound), which the report's report.json must carry over;
// the report reads matrix.json and never writes it; one it cannot read is refused. The documents are hand-made
// in the shape docs/output-files.md ("matrix.json of a run with cells") gives.
#include "aorta/error.hpp"
#include "aorta/report.hpp"
#include "aorta/trial_record.hpp"
#include "report/report_sweep_matrix.hpp"
#include "unit/process_test_support.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <string>

namespace aorta {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;
using test::read_file;
using test::write_file;

// Two cells of one trial each, as a sweep with cells lays them out.
void write_two_cells(const fs::path& root) {
  for (const char* cell : {"base", "heavy"}) {
    fs::create_directories(root / cell / "trial_0");
    trial_record trial;
    trial.metrics.values["callgrind_total_ir"] = std::int64_t{1000};
    trial.verdict = verdict::pass;
    write_result_json(root / cell / "trial_0" / "result.json", trial);
  }
}

json sweep_matrix() {
  return json::parse(R"json({
    "schema": "aorta-matrix", "schema_version": 1, "generated_at": "2026-12-01T00:00:00Z",
    "seed": "7", "rounds": 1,
    "cells": [
      {"name": "base", "mitigations": ["base"], "resolved_env_vars": {"CELLS_STEPS": "32"},
       "passed_count": 99},
      {"name": "heavy", "mitigations": ["heavy"], "resolved_env_vars": {"CELLS_STEPS": "36"}}
    ],
    "checks": [
      {"expression": "ir(^work)@heavy / ir(^work)@base <= 1.05", "passed": false,
       "expected": "<= 1.05", "actual": "1.125", "value": 1.125, "message": "check failed"},
      {"expression": "callgrind_total_ir@base > 0", "passed": true, "expected": "> 0",
       "actual": "1000", "value": 1000, "message": "check passed"}
    ],
    "confound": {"baseline_cell": "base", "threshold": 1.05, "alpha": 0.05, "fail": false,
                 "verdict_counts": {"SLOWER": 1},
                 "rows": [{"cell": "heavy", "reference_cell": "base", "quantity": "ir(work)",
                           "verdict": "SLOWER"}]}
  })json");
}

TEST(ReportSweepMatrix, KeepsTheSweepsChecksConfoundAndCellKeys) {
  const test::scratch_dir dir;
  write_two_cells(dir.path());
  const json sweep = sweep_matrix();
  write_file((dir / "matrix.json"), sweep.dump());

  const report_summary summary = write_aggregate_report(dir.path());
  // The sweep is matrix.json's one writer: the report only reads it.
  EXPECT_EQ(read_file(dir / "matrix.json"), sweep.dump());
  EXPECT_EQ(summary.kept_from_sweep, "report.json keeps the sweep's 2 cell check(s) (1 passed, 1 "
                                     "failed) and its confound verdicts against base");
  EXPECT_NE(summary.to_string().find(summary.kept_from_sweep), std::string::npos);
  const json report = json::parse(read_file(dir / "report.json"));
  EXPECT_EQ(report.at("checks"), sweep.at("checks"));
  EXPECT_EQ(report.at("confound"), sweep.at("confound"));
  EXPECT_EQ(report.at("seed"), "7");
  EXPECT_EQ(report.at("rounds"), 1);
  EXPECT_EQ(report.at("cells").at(0).at("resolved_env_vars").at("CELLS_STEPS"), "32");
  EXPECT_EQ(report.at("cells").at(1).at("mitigations").at(0), "heavy");
  // What the report counts from the result.json files is the report's, not the sweep's.
  EXPECT_EQ(report.at("cells").at(0).at("passed_count"), 1);
  EXPECT_NE(report.at("generated_at"), sweep.at("generated_at"));
  EXPECT_TRUE(report.at("cells").at(0).contains("top_kernels"));

  // A second report over the first one's output keeps the same verdicts.
  write_aggregate_report(dir.path());
  EXPECT_EQ(read_file(dir / "matrix.json"), sweep.dump());
  const json again = json::parse(read_file(dir / "report.json"));
  EXPECT_EQ(again.at("checks"), sweep.at("checks"));
  EXPECT_EQ(again.at("confound"), sweep.at("confound"));
}

// Cells are matched by name, not position; of two swept cells of one name the first gives a key,
// the second only the keys the first lacks; a swept cell no report cell names is dropped.
TEST(ReportSweepMatrix, CellKeysFollowTheNameAndTheFirstOfDuplicatesWins) {
  const test::scratch_dir dir;
  write_two_cells(dir.path());
  json sweep = sweep_matrix();
  sweep["cells"] = json::parse(R"json([
    {"name": "gone", "mitigations": ["gone"]},
    {"name": "heavy", "mitigations": ["first"]},
    {"name": "base", "mitigations": ["base"]},
    {"name": "heavy", "mitigations": ["second"], "seed_offset": 3}
  ])json");
  write_file((dir / "matrix.json"), sweep.dump());

  write_aggregate_report(dir.path());
  const json cells = json::parse(read_file(dir / "report.json")).at("cells");
  ASSERT_EQ(cells.size(), 2U);
  EXPECT_EQ(cells.at(0).at("name"), "base");
  EXPECT_EQ(cells.at(0).at("mitigations").at(0), "base");
  EXPECT_FALSE(cells.at(0).contains("seed_offset"));
  EXPECT_EQ(cells.at(1).at("mitigations").at(0), "first");
  EXPECT_EQ(cells.at(1).at("seed_offset"), 3);
}

TEST(ReportSweepMatrix, AReportsOwnOutputKeepsNothingMoreAndWritesNoMatrix) {
  const test::scratch_dir dir;
  write_two_cells(dir.path());
  write_aggregate_report(dir.path());
  const report_summary summary = write_aggregate_report(dir.path());
  EXPECT_EQ(summary.kept_from_sweep, "");
  EXPECT_FALSE(fs::exists(dir.path() / "matrix.json"));
  const json report = json::parse(read_file(dir / "report.json"));
  EXPECT_FALSE(report.contains("checks"));
  EXPECT_FALSE(report.contains("confound"));
}

// read_sweep_matrix leaves out the values of the keys the report writes itself; a key listed
// there that the report did not write would lose a sweep's value.
TEST(ReportSweepMatrix, TheKeysLeftUnreadAreTheOnesTheReportWrites) {
  const test::scratch_dir dir;
  write_two_cells(dir.path());
  write_aggregate_report(dir.path());
  const json report = json::parse(read_file(dir / "report.json"));
  for (const std::string_view key : detail::report_matrix_keys) {
    EXPECT_TRUE(report.contains(key)) << key;
  }
  for (const auto& cell : report.at("cells")) {
    for (const std::string_view key : detail::report_cell_keys) {
      EXPECT_TRUE(cell.contains(key)) << key;
    }
  }
}

// A sweep's values for the report's own keys are not read, wherever they lie; the same names
// deeper down, or outside the cells, are the sweep's and kept.
TEST(ReportSweepMatrix, OwnKeysAreSkippedOnlyWhereTheReportWritesThem) {
  const test::scratch_dir dir;
  write_two_cells(dir.path());
  json sweep = sweep_matrix();
  sweep["trials"] = json::parse(R"json({"deep": [[1]]})json");
  sweep["cells"][0]["metrics_summary"] = json::parse(R"json({"x": {"mean": 5}})json");
  sweep["cells"][0]["resolved_env_vars"]["trials"] = "kept";
  sweep["extra"] =
      json::parse(R"json({"cells": [{"name": "base", "trials": 9}], "trials": 8})json");
  write_file((dir / "matrix.json"), sweep.dump());
  const auto read = detail::read_sweep_matrix(dir.path());
  ASSERT_TRUE(read.has_value());
  EXPECT_FALSE(read->contains("trials"));
  EXPECT_FALSE(read->at("cells").at(0).contains("metrics_summary"));
  EXPECT_EQ(read->at("cells").at(0).at("name"), "base");
  EXPECT_EQ(read->at("cells").at(0).at("resolved_env_vars").at("trials"), "kept");
  EXPECT_EQ(read->at("extra"), sweep.at("extra"));
  EXPECT_EQ(read->at("checks"), sweep.at("checks"));
  EXPECT_EQ(read->at("confound"), sweep.at("confound"));

  write_aggregate_report(dir.path());
  const json report = json::parse(read_file(dir / "report.json"));
  EXPECT_EQ(report.at("extra"), sweep.at("extra"));
  EXPECT_EQ(report.at("cells").at(0).at("resolved_env_vars").at("trials"), "kept");
}

TEST(ReportSweepMatrix, OnlyConfoundOrOnlyChecksAreNamed) {
  const test::scratch_dir dir;
  write_two_cells(dir.path());
  json sweep = sweep_matrix();
  sweep["checks"] = json::array();
  write_file((dir / "matrix.json"), sweep.dump());
  EXPECT_EQ(write_aggregate_report(dir.path()).kept_from_sweep,
            "report.json keeps the sweep's confound verdicts against base");
  sweep = sweep_matrix();
  sweep["confound"] = nullptr;
  write_file((dir / "matrix.json"), sweep.dump());
  EXPECT_EQ(write_aggregate_report(dir.path()).kept_from_sweep,
            "report.json keeps the sweep's 2 cell check(s) (1 passed, 1 failed)");
}

// A confound row still AMBIGUOUS, and a run that stopped before its verdicts, are said in the
// report's summary, never left to read as a green (issue 39, items 3 and 6).
TEST(ReportSweepMatrix, AmbiguousRowsAndAnIncompleteRunAreSaid) {
  const test::scratch_dir dir;
  write_two_cells(dir.path());
  json sweep = sweep_matrix();
  sweep["checks"] = json::array();
  sweep["confound"]["verdict_counts"] = {{"SAME", 3}, {"AMBIGUOUS", 2}};
  write_file((dir / "matrix.json"), sweep.dump());
  EXPECT_EQ(write_aggregate_report(dir.path()).kept_from_sweep,
            "report.json keeps the sweep's confound verdicts against base (2 still AMBIGUOUS)");
  sweep = sweep_matrix();
  sweep["checks"] = json::array();
  sweep["confound"] = nullptr;
  sweep["incomplete"] = "interrupted by SIGINT: stopped after 1 of 4 trial(s)";
  write_file((dir / "matrix.json"), sweep.dump());
  EXPECT_EQ(
      write_aggregate_report(dir.path()).kept_from_sweep,
      "matrix.json: the cells run is incomplete (interrupted by SIGINT: stopped after 1 of 4 "
      "trial(s)): no cell check or confound verdict was judged; run the sweep again for them");
}

// Each of these would have given a report.json without whatever verdicts the file held: refused,
// naming the file, what is wrong and the fix, and the file is left as it was.
TEST(ReportSweepMatrix, UnreadableMatrixIsRefusedAndLeftAlone) {
  const auto with = [](const char* key, json value) {
    json document = sweep_matrix();
    document[key] = std::move(value);
    return document.dump();
  };
  json check_without_verdict = sweep_matrix()["checks"];
  check_without_verdict[0].erase("passed");
  const std::pair<std::string, std::string> cases[] = {
      {"{\"schema\": \"aorta-matrix\", ", "not valid JSON"},
      {std::string(2000, '[') + std::string(2000, ']'), "not valid JSON"},
      {"[1]", "not a JSON object"},
      {with("schema", "aorta-result"), "its \"schema\" is not \"aorta-matrix\""},
      {with("schema_version", 3), "its \"schema_version\" is not one this aorta reads (1 to 2)"},
      {with("checks", json::object()), "its \"checks\" is not an array"},
      {with("checks", check_without_verdict), "lacks a text \"expression\" or a boolean"},
      {with("confound", "base"), "its \"confound\" is neither null nor an object"},
      {with("cells", json::array({json::object()})), "an entry of its \"cells\" lacks a text"},
  };
  for (const auto& [text, why] : cases) {
    const test::scratch_dir dir;
    write_two_cells(dir.path());
    write_file((dir / "matrix.json"), text);
    try {
      (void)write_aggregate_report(dir.path());
      ADD_FAILURE() << "accepted: " << text.substr(0, 60);
    } catch (const error& refused) {
      const std::string message = refused.what();
      EXPECT_EQ(refused.code(), exit_code::failed);
      EXPECT_NE(message.find((dir / "matrix.json").string()), std::string::npos) << message;
      EXPECT_NE(message.find(why), std::string::npos) << message;
      EXPECT_NE(message.find("Fix: run the sweep again"), std::string::npos) << message;
    }
    EXPECT_EQ(read_file(dir / "matrix.json"), text);
    EXPECT_FALSE(fs::exists(dir.path() / "perf.md"));
  }
}

TEST(ReportSweepMatrix, ADirectoryNamedMatrixJsonIsRefused) {
  const test::scratch_dir dir;
  write_two_cells(dir.path());
  fs::create_directory(dir / "matrix.json");
  try {
    (void)write_aggregate_report(dir.path());
    ADD_FAILURE() << "a directory named matrix.json was accepted";
  } catch (const error& refused) {
    EXPECT_NE(std::string(refused.what()).find((dir / "matrix.json").string()), std::string::npos);
  }
}

}  // namespace
}  // namespace aorta
