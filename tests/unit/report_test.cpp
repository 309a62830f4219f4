#include "aorta/error.hpp"
#include "aorta/report.hpp"
#include "aorta/schema.hpp"
#include "aorta/trial_record.hpp"

#include <gtest/gtest.h>

#include <unistd.h>

#include <fstream>
#include <sstream>

namespace aorta {
namespace {

namespace fs = std::filesystem;

class temp_dir {
public:
  temp_dir() {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    m_path = fs::temp_directory_path() /
             ("aorta_report_test_" + std::to_string(::getpid()) + "_" + info->name());
    fs::remove_all(m_path);
    fs::create_directories(m_path);
  }
  ~temp_dir() {
    std::error_code ignored;
    fs::remove_all(m_path, ignored);
  }
  temp_dir(const temp_dir&) = delete;
  temp_dir& operator=(const temp_dir&) = delete;
  [[nodiscard]] const fs::path& path() const { return m_path; }

private:
  fs::path m_path;
};

std::string read_text(const fs::path& path) {
  std::ifstream in(path);
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

trial_record full_record() {
  trial_record record;
  record.aorta_version = "0.1.0";
  record.recipe_path = "/src/recipe.yaml";
  record.ticket = "T-1";
  record.trial_index = 2;
  record.command = {"python3", "vecadd.py"};
  record.argv = {"proton", "python3", "vecadd.py"};
  record.env_set = {{"A", "1"}, {"B", "two"}};
  record.env_unset = {"C"};
  record.working_directory = "/work";
  record.exit_status = 0;
  record.timed_out = false;
  record.wall_seconds = 1.25;
  record.collectors = {"proton"};
  record.metrics.values["proton_kernel_count"] = std::int64_t{60};
  record.metrics.values["proton_gpu_time_ms"] = 1.0;
  record.metrics.values["proton_artifact_dir"] = std::string("/out/proton");
  record.metrics.values["proton_top_kernels"] = std::vector<std::string>{"add_kernel", "mul"};
  record.metrics.kernels = {{"add_kernel", 20, 0.75, "proton"},
                            {"mul", std::nullopt, 0.25, "proton"}};
  record.metrics.notes = {"a metric note"};
  record.checks = {{"count(add) == 20", true, "== 20", "20", "check passed"}};
  record.verdict = verdict::fail;
  record.reason = "payload exited 1";
  record.versions = {{"triton", "3.8.0"}};
  record.started_at = "2025-01-01T00:00:00Z";
  record.notes = {"a trial note"};
  return record;
}

TEST(TrialRecord, JsonRoundTrip) {
  const trial_record original = full_record();
  const trial_record back = trial_record_from_json(nlohmann::json::parse(to_json(original).dump()));
  EXPECT_EQ(back.schema_version, 1);
  EXPECT_EQ(back.aorta_version, "0.1.0");
  EXPECT_EQ(back.recipe_path, "/src/recipe.yaml");
  EXPECT_EQ(back.ticket, "T-1");
  EXPECT_EQ(back.trial_index, 2);
  EXPECT_EQ(back.command, original.command);
  EXPECT_EQ(back.argv, original.argv);
  EXPECT_EQ(back.env_set, original.env_set);
  EXPECT_EQ(back.env_unset, original.env_unset);
  EXPECT_EQ(back.working_directory, "/work");
  EXPECT_EQ(back.exit_status, 0);
  EXPECT_EQ(back.signal, std::nullopt);
  EXPECT_FALSE(back.timed_out);
  EXPECT_EQ(back.wall_seconds, 1.25);
  EXPECT_EQ(back.collectors, original.collectors);
  EXPECT_EQ(back.metrics.values, original.metrics.values);  // types too: 1.0 stays a double
  EXPECT_TRUE(std::holds_alternative<double>(back.metrics.values.at("proton_gpu_time_ms")));
  ASSERT_EQ(back.metrics.kernels.size(), 2U);
  EXPECT_EQ(back.metrics.kernels[0].launches, 20U);
  EXPECT_EQ(back.metrics.kernels[1].launches, std::nullopt);
  EXPECT_EQ(back.metrics.kernels[1].total_ms, 0.25);
  EXPECT_EQ(back.metrics.kernels[1].collector, "proton");
  EXPECT_EQ(back.metrics.notes, original.metrics.notes);
  ASSERT_EQ(back.checks.size(), 1U);
  EXPECT_EQ(back.checks[0].expression, "count(add) == 20");
  EXPECT_TRUE(back.checks[0].passed);
  EXPECT_EQ(back.checks[0].actual, "20");
  EXPECT_EQ(back.verdict, verdict::fail);
  EXPECT_EQ(back.reason, "payload exited 1");
  EXPECT_EQ(back.versions, original.versions);
  EXPECT_EQ(back.started_at, original.started_at);
  EXPECT_EQ(back.notes, original.notes);
}

TEST(TrialRecord, JsonLayoutIsFlatAndNullsAbsentValues) {
  trial_record record = full_record();
  record.exit_status.reset();
  record.signal = 9;
  const nlohmann::json json = to_json(record);
  EXPECT_TRUE(json.at("exit_status").is_null());
  EXPECT_EQ(json.at("signal"), 9);
  EXPECT_EQ(json.at("metrics").at("proton_kernel_count"), 60);
  EXPECT_EQ(json.at("verdict"), "fail");
  EXPECT_TRUE(json.at("kernels").at(1).at("launches").is_null());
}

TEST(TrialRecord, NewerSchemaIsReadWithANote) {
  nlohmann::json json = to_json(full_record());
  json["schema_version"] = 3;
  json["some_future_key"] = {{"x", 1}};
  const trial_record back = trial_record_from_json(json);
  EXPECT_EQ(back.schema_version, 3);
  EXPECT_EQ(back.ticket, "T-1");
  ASSERT_EQ(back.notes.size(), 2U);
  EXPECT_NE(back.notes[1].find("schema_version 3, newer than the 1"), std::string::npos);
}

TEST(TrialRecord, WrongTypeNamesTheKey) {
  nlohmann::json json = to_json(full_record());
  json["trial_index"] = "two";
  try {
    (void)trial_record_from_json(json);
    FAIL() << "expected an error";
  } catch (const error& failure) {
    EXPECT_NE(std::string(failure.what()).find("'trial_index'"), std::string::npos);
  }
  json = to_json(full_record());
  json["verdict"] = "maybe";
  EXPECT_THROW((void)trial_record_from_json(json), error);
  EXPECT_THROW((void)trial_record_from_json(nlohmann::json::array()), error);
}

TEST(TrialRecord, NamesItsSchemaAndRefusesAnotherFormat) {
  nlohmann::json json = to_json(full_record());
  EXPECT_EQ(json.at("schema"), "aorta-result");
  EXPECT_EQ(json.at("schema_version"), schemas::result.version);
  json.erase("schema");  // results written before the key existed are still read
  EXPECT_EQ(trial_record_from_json(json).ticket, "T-1");
  json["schema"] = "aorta-baseline";
  try {
    (void)trial_record_from_json(json);
    FAIL() << "expected an error";
  } catch (const error& failure) {
    EXPECT_NE(std::string(failure.what()).find("'schema'"), std::string::npos);
  }
}

TEST(TrialRecord, WriteIsAtomicAndLeavesNoTemporaries) {
  const temp_dir dir;
  const fs::path path = dir.path() / "result.json";
  write_result_json(path, full_record());
  write_result_json(path, full_record());  // replaces
  std::size_t entries = 0;
  for ([[maybe_unused]] const auto& entry : fs::directory_iterator(dir.path())) ++entries;
  EXPECT_EQ(entries, 1U);
  EXPECT_EQ(trial_record_from_json(nlohmann::json::parse(read_text(path))).ticket, "T-1");
  EXPECT_THROW(write_result_json(dir.path() / "missing" / "result.json", full_record()),
               setup_error);
}

TEST(Report, CTestMeasurementsOnlyNumericAndEscaped) {
  metric_set metrics;
  metrics.values["b"] = 2.5;
  metrics.values["a<&>\""] = std::int64_t{3};
  metrics.values["s"] = std::string("text");
  metrics.values["l"] = std::vector<std::string>{"x"};
  EXPECT_EQ(ctest_measurements(metrics),
            "<CTestMeasurement type=\"numeric/double\" name=\"a&lt;&amp;&gt;&quot;\">3"
            "</CTestMeasurement>\n"
            "<CTestMeasurement type=\"numeric/double\" name=\"b\">2.5</CTestMeasurement>\n");
  EXPECT_EQ(ctest_measurements({}), "");
}

trial_record proton_trial(std::int64_t count, double ms, verdict outcome) {
  trial_record record;
  record.collectors = {"proton"};
  record.metrics.values["proton_kernel_count"] = count;
  record.metrics.values["proton_gpu_time_ms"] = ms;
  record.metrics.values["proton_top_kernels"] = std::vector<std::string>{"add_kernel", "mul|x"};
  record.metrics.values["proton_artifact_dir"] = std::string("/out/p");
  record.metrics.kernels = {{"add_kernel", count - 10, ms - 0.1, "proton"},
                            {"mul|x", 10, 0.1, "proton"}};
  record.verdict = outcome;
  return record;
}

TEST(Report, AggregateOverTwoCellsAndThreeTrials) {
  const temp_dir dir;
  const fs::path root = dir.path();
  fs::create_directories(root / "cellA" / "trial_0");
  fs::create_directories(root / "cellA" / "trial_1");
  fs::create_directories(root / "cellA" / "trial_2");
  fs::create_directories(root / "group" / "cellB" / "trial_0");
  write_result_json(root / "cellA" / "trial_0" / "result.json",
                    proton_trial(60, 0.25, verdict::pass));
  write_result_json(root / "cellA" / "trial_1" / "result.json",
                    proton_trial(66, 0.75, verdict::fail));
  std::ofstream(root / "cellA" / "trial_2" / "result.json") << "{not json";
  trial_record callgrind;
  callgrind.metrics.values["callgrind_total_ir"] = std::int64_t{1000};
  callgrind.verdict = verdict::pass;
  write_result_json(root / "group" / "cellB" / "trial_0" / "result.json", callgrind);

  const report_summary summary = write_aggregate_report(root);
  EXPECT_EQ(summary.trials, 3U);
  EXPECT_EQ(summary.cells, 2U);
  ASSERT_EQ(summary.notes.size(), 1U);
  EXPECT_NE(summary.notes[0].find("cellA/trial_2/result.json: not valid JSON"), std::string::npos);
  EXPECT_EQ(summary.to_string(), "report: 3 trials in 2 cells -> perf.md, report.json, report.html "
                                 "(1 result.json skipped)\n"
                                 "  cellA: 1 pass, 1 fail, 0 skip, 0 error\n"
                                 "  group/cellB: 1 pass, 0 fail, 0 skip, 0 error");

  const auto matrix = nlohmann::json::parse(read_text(root / "report.json"));
  EXPECT_EQ(matrix.at("schema_version"), aorta::schemas::matrix.version);
  const auto& cells = matrix.at("cells");
  ASSERT_EQ(cells.size(), 2U);
  const auto& a = cells.at(0);
  EXPECT_EQ(a.at("name"), "cellA");
  EXPECT_EQ(a.at("trials"), 2);
  EXPECT_EQ(a.at("passed_count"), 1);
  EXPECT_EQ(a.at("failed_count"), 1);
  EXPECT_EQ(a.at("skipped_count"), 0);
  EXPECT_EQ(a.at("failure_rate"), 0.5);
  const auto& count = a.at("metrics_summary").at("proton_kernel_count");
  EXPECT_EQ(count.at("mean"), 63.0);
  EXPECT_EQ(count.at("min"), 60.0);
  EXPECT_EQ(count.at("max"), 66.0);
  EXPECT_EQ(count.at("n"), 2);
  const auto& time = a.at("metrics_summary").at("proton_gpu_time_ms");
  EXPECT_EQ(time.at("mean"), 0.5);
  EXPECT_EQ(time.at("min"), 0.25);
  EXPECT_EQ(time.at("max"), 0.75);
  EXPECT_FALSE(a.at("metrics_summary").contains("proton_top_kernels"));
  EXPECT_EQ(a.at("top_kernels").at(0).at("name"), "add_kernel");
  EXPECT_EQ(a.at("top_kernels").at(0).at("launches"), 56);  // the last trial: 66 - 10
  EXPECT_EQ(a.at("last_trial_values").at("proton_top_kernels").at(1), "mul|x");
  EXPECT_EQ(a.at("trial_results"),
            (nlohmann::json{"cellA/trial_0/result.json", "cellA/trial_1/result.json"}));
  const auto& b = cells.at(1);
  EXPECT_EQ(b.at("name"), "group/cellB");
  EXPECT_EQ(b.at("metrics_summary").at("callgrind_total_ir").at("mean"), 1000.0);
  EXPECT_EQ(b.at("metrics_summary").at("callgrind_total_ir").at("n"), 1);
  EXPECT_EQ(b.at("failure_rate"), 0.0);
  EXPECT_EQ(matrix.at("skipped_files").size(), 1U);

  const std::string perf = read_text(root / "perf.md");
  EXPECT_NE(perf.find("## cellA\n"), std::string::npos);
  EXPECT_NE(perf.find("## group/cellB\n"), std::string::npos);
  EXPECT_NE(perf.find("| `proton_kernel_count` | 63 | 60 | 66 | 2 |"), std::string::npos);
  EXPECT_NE(perf.find("| `proton_gpu_time_ms` | 0.5 | 0.25 | 0.75 | 2 |"), std::string::npos);
  EXPECT_NE(perf.find("2 trials: 1 pass, 1 fail, 0 skip, 0 error; failure rate 0.5"),
            std::string::npos);
  // Non-numeric results reach perf.md, `|` escaped inside the table.
  EXPECT_NE(perf.find("| `proton_top_kernels` | `add_kernel`, `mul\\|x` |"), std::string::npos);
  EXPECT_NE(perf.find("| `add_kernel` | proton | 56 | 0.65 |"), std::string::npos);
  EXPECT_NE(perf.find("## Skipped result files"), std::string::npos);

  const std::string html = read_text(root / "report.html");
  EXPECT_NE(html.find("<svg"), std::string::npos);
  EXPECT_NE(html.find("<title>add_kernel: 0.65 ms</title>"), std::string::npos);
  EXPECT_EQ(html.find("<script"), std::string::npos);
  EXPECT_EQ(html.find("<link"), std::string::npos);
  EXPECT_EQ(html.find("src=\""), std::string::npos);

  for (const auto& entry : fs::directory_iterator(root)) {
    EXPECT_EQ(entry.path().filename().string().find(".tmp-"), std::string::npos);
  }
}

TEST(Report, EmptyTreeAndMissingDirectory) {
  const temp_dir dir;
  const report_summary summary = write_aggregate_report(dir.path());
  EXPECT_EQ(summary.trials, 0U);
  EXPECT_EQ(summary.to_string(),
            "report: 0 trials in 0 cells -> perf.md, report.json, report.html");
  EXPECT_TRUE(fs::exists(dir.path() / "report.html"));
  // No test wrote anything: "0 trials", not a second failure (issue 11). A file is still refused.
  const report_summary absent = write_aggregate_report(dir.path() / "absent");
  EXPECT_EQ(absent.trials, 0U);
  EXPECT_TRUE(fs::exists(dir.path() / "absent" / "report.html"));
  EXPECT_THROW((void)write_aggregate_report(dir.path() / "perf.md"), usage_error);
}

// The page opens on a test x verdict matrix with the key metric and the skip reason; each test's
// details are collapsed; scopes get a chart like kernels.
TEST(Report, HtmlSummaryMatrixDetailsAndScopeChart) {
  const temp_dir dir;
  trial_record skipped = proton_trial(60, 0.25, verdict::skip);
  skipped.reason = "proton needs a GPU";
  fs::create_directories(dir.path() / "a_skipped" / "trial_0");
  write_result_json(dir.path() / "a_skipped" / "trial_0" / "result.json", skipped);
  trial_record scoped = proton_trial(60, 0.25, verdict::pass);
  scoped.metrics.values["proton_scope_cycles.expensive"] = std::int64_t{4000};
  scoped.metrics.values["proton_scope_cycles.cheap"] = std::int64_t{500};
  check_result check;
  check.expression = "cycles(expensive) / cycles(cheap) > 5";
  check.passed = true;
  check.actual = "8 (4000 / 500)";
  scoped.checks.push_back(check);
  fs::create_directories(dir.path() / "b_scoped" / "trial_0");
  write_result_json(dir.path() / "b_scoped" / "trial_0" / "result.json", scoped);
  (void)write_aggregate_report(dir.path());
  const std::string html = read_text(dir.path() / "report.html");
  const auto matrix = html.find("<table class=\"summary\">");
  const auto first_details = html.find("<details");
  ASSERT_NE(matrix, std::string::npos);
  ASSERT_NE(first_details, std::string::npos);
  EXPECT_LT(matrix, first_details);
  EXPECT_NE(html.find("proton needs a GPU</td>"), std::string::npos);
  EXPECT_NE(html.find("<td><code>cycles(expensive) / cycles(cheap) &gt; 5</code></td>"
                      "<td class=\"n\" title=\"8 (4000 / 500)\">8</td>"),
            std::string::npos);
  EXPECT_EQ(html.find("<details open"), std::string::npos);
  EXPECT_NE(html.find("<h4>Cycles per scope</h4>"), std::string::npos);
  EXPECT_NE(html.find("<title>expensive: 4000 cycles</title>"), std::string::npos);
  EXPECT_EQ(html.find("<script"), std::string::npos);
}

// `ctest -R one_test` after a full run: results older than the run marker are stale.
TEST(Report, ResultsBeforeTheRunMarkerAreStale) {
  const temp_dir dir;
  trial_record old = proton_trial(60, 0.25, verdict::pass);
  old.started_at = "2000-01-01T00:00:00Z";
  fs::create_directories(dir.path() / "old" / "trial_0");
  write_result_json(dir.path() / "old" / "trial_0" / "result.json", old);
  const std::string started = begin_report_run(dir.path());
  trial_record now = proton_trial(60, 0.25, verdict::pass);
  now.started_at = started;
  fs::create_directories(dir.path() / "now" / "trial_0");
  write_result_json(dir.path() / "now" / "trial_0" / "result.json", now);
  const report_summary summary = write_aggregate_report(dir.path());
  EXPECT_EQ(summary.trials, 1U);
  ASSERT_EQ(summary.stale_lines.size(), 1U);
  EXPECT_EQ(summary.stale_lines[0], "old/trial_0/result.json (pass, 2000-01-01T00:00:00Z; run "
                                    "started " + started + ")");
  EXPECT_NE(read_text(dir.path() / "perf.md").find("## Stale results"), std::string::npos);
}

TEST(Report, ResultOutsideATrialDirectoryIsItsOwnCell) {
  const temp_dir dir;
  write_result_json(dir.path() / "result.json", proton_trial(60, 0.25, verdict::skip));
  const report_summary summary = write_aggregate_report(dir.path());
  EXPECT_EQ(summary.cells, 1U);
  const auto matrix = nlohmann::json::parse(read_text(dir.path() / "report.json"));
  EXPECT_EQ(matrix.at("cells").at(0).at("name"), ".");
  EXPECT_EQ(matrix.at("cells").at(0).at("skipped_count"), 1);
  EXPECT_EQ(matrix.at("cells").at(0).at("failure_rate"), 0.0);
}

// CTest does not print why a test was skipped; the report's summary and perf.md do.
TEST(Report, SkipReasonReachesTheSummaryAndPerfMd) {
  const temp_dir dir;
  trial_record skipped = proton_trial(60, 0.25, verdict::skip);
  skipped.reason = "proton needs a GPU\nand a second line";
  fs::create_directories(dir.path() / "vecadd" / "trial_0");
  write_result_json(dir.path() / "vecadd" / "trial_0" / "result.json", skipped);
  const report_summary summary = write_aggregate_report(dir.path());
  ASSERT_EQ(summary.cell_lines.size(), 1U);
  EXPECT_EQ(summary.cell_lines[0],
            "vecadd: 0 pass, 0 fail, 1 skip, 0 error -- skip: proton needs a GPU");
  EXPECT_NE(read_text(dir.path() / "perf.md").find("Last trial skip: proton needs a GPU"),
            std::string::npos);
}

}  // namespace
}  // namespace aorta
