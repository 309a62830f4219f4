// The gate's verdict of a test lives in gate.json (`test_verdict`), never in a rewritten
// result.json; `aorta report` lays it over the trial it is about. Real records and real reports:
// write_result_json for the trial, the report over the directory.
#include "aorta/error.hpp"
#include "aorta/report.hpp"
#include "aorta/trial_record.hpp"
#include "record/gate_verdict.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

namespace {

namespace fs = std::filesystem;
using aorta::detail::gate_test_verdict;

class gated_test_dir {
public:
  gated_test_dir() {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    m_path = fs::temp_directory_path() /
             ("aorta_report_gate_verdict_" + std::to_string(::getpid()) + "_" + info->name());
    fs::remove_all(m_path);
    fs::create_directories(m_path / "t" / "trial_0");
    aorta::trial_record trial;
    trial.trial_index = 0;
    trial.started_at = "2026-12-06T10:00:00Z";
    trial.verdict = aorta::verdict::pass;
    aorta::write_result_json(m_path / "t" / "trial_0" / "result.json", trial);
  }
  ~gated_test_dir() {
    std::error_code ignored;
    fs::remove_all(m_path, ignored);
  }
  gated_test_dir(const gated_test_dir&) = delete;
  gated_test_dir& operator=(const gated_test_dir&) = delete;

  void write_gate_json(const nlohmann::json& test_verdict) const {
    nlohmann::json document = {{"schema", "aorta-gate"},
                               {"schema_version", 1},
                               {"test", "t"},
                               {"verdict", "fail"},
                               {"test_verdict", test_verdict}};
    std::ofstream(m_path / "t" / "gate.json") << document.dump();
  }
  [[nodiscard]] std::string cell_line() const {
    const auto summary = aorta::write_aggregate_report(m_path);
    return summary.cell_lines.empty() ? std::string() : summary.cell_lines.front();
  }
  [[nodiscard]] std::size_t skipped() const {
    return aorta::write_aggregate_report(m_path).notes.size();
  }

private:
  fs::path m_path;
};

gate_test_verdict regression(const std::string& started_at) {
  gate_test_verdict said;
  said.trial_index = 0;
  said.started_at = started_at;
  said.turned_to = aorta::verdict::fail;
  said.reason = "regression against the baseline";
  said.checks.push_back({"ir(f) == baseline", false, "exact", "11 (+10.00%, MORE (fail))",
                         "gate MORE (fail): 11"});
  said.notes.push_back("gate NOTE: another card");
  return said;
}

TEST(ReportGateVerdict, TheGateTurnsTheLastTrialAsCTestDid) {
  const gated_test_dir dir;
  dir.write_gate_json(aorta::detail::to_json(regression("2026-12-06T10:00:00Z")));
  EXPECT_EQ(dir.cell_line(), "t: 1 pass, 0 fail, 0 skip, 0 error; the regression gate over all 1 "
                             "trial: fail -- fail: regression against the baseline");
}

TEST(ReportGateVerdict, WithoutGateJsonTheTrialStands) {
  const gated_test_dir dir;
  EXPECT_EQ(dir.cell_line(), "t: 1 pass, 0 fail, 0 skip, 0 error");
}

// A gate.json an earlier run left behind is about another trial 0: never laid over this one.
TEST(ReportGateVerdict, AGateJsonOfAnotherRunIsNotLaidOver) {
  const gated_test_dir dir;
  dir.write_gate_json(aorta::detail::to_json(regression("2026-12-05T09:00:00Z")));
  EXPECT_EQ(dir.cell_line(), "t: 1 pass, 0 fail, 0 skip, 0 error");
}

// Nothing measured is never a pass: a gate.json that cannot be read skips the test's trials with
// the reason instead of counting them as passed.
TEST(ReportGateVerdict, AnUnreadableGateVerdictIsNeverAPass) {
  const gated_test_dir dir;
  auto said = aorta::detail::to_json(regression("2026-12-06T10:00:00Z"));
  for (const char* key : {"trial_index", "turned_to", "checks", "notes", "reason"}) {
    auto damaged = said;
    damaged.erase(key);
    dir.write_gate_json(damaged);
    EXPECT_EQ(dir.skipped(), 1U) << key;
    EXPECT_EQ(dir.cell_line(), "") << key;
  }
  for (const auto& [key, value] : {std::pair<const char*, nlohmann::json>{"trial_index", -1},
                                   {"trial_index", "0"},
                                   {"turned_to", "pass"},
                                   {"turned_to", 3},
                                   {"checks", nlohmann::json::array({1})},
                                   {"notes", nlohmann::json::array({1})}}) {
    auto damaged = said;
    damaged[key] = value;
    dir.write_gate_json(damaged);
    EXPECT_EQ(dir.skipped(), 1U) << key << " = " << value.dump();
  }
}

TEST(GateTestVerdict, JsonRoundTrip) {
  const auto said = regression("2026-12-06T10:00:00Z");
  const auto back = aorta::detail::gate_test_verdict_from_json(
      nlohmann::json::parse(aorta::detail::to_json(said).dump()));
  EXPECT_EQ(back.trial_index, said.trial_index);
  EXPECT_EQ(back.started_at, said.started_at);
  EXPECT_EQ(back.turned_to, said.turned_to);
  EXPECT_EQ(back.reason, said.reason);
  ASSERT_EQ(back.checks.size(), 1U);
  EXPECT_EQ(back.checks.front().actual, said.checks.front().actual);
  EXPECT_EQ(back.notes, said.notes);
}

// Laid over a trial that failed its own checks, the gate adds its rows but does not turn it.
TEST(GateTestVerdict, ATrialThatFailedKeepsItsOwnVerdict) {
  aorta::trial_record trial;
  trial.verdict = aorta::verdict::fail;
  trial.reason = "check failed";
  aorta::detail::lay_over(trial, regression(""));
  EXPECT_EQ(trial.verdict, aorta::verdict::fail);
  EXPECT_EQ(trial.reason, "check failed");
  EXPECT_FALSE(trial.verdict_from_gate);
  EXPECT_EQ(trial.checks.size(), 1U);
}

}  // namespace
