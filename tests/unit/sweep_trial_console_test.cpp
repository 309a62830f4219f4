// What the console shows of a run below --verbose (sweep/trial_console.hpp): the verdict line's
// reason and counts, which trials' lines are kept, and the tail of a failed payload's logs, read
// from their end only and refused when they are no regular file.
#include "reporting/console_reporter.hpp"
#include "sweep/trial_console.hpp"
#include "unit/process_test_support.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <sys/stat.h>

#include <filesystem>
#include <sstream>
#include <string>

namespace aorta::detail {
namespace {

namespace fs = std::filesystem;
using test::scratch_dir;
using test::write_file;
using ::testing::HasSubstr;
using ::testing::Not;

trial_record trial(int index, verdict outcome, std::string reason = "") {
  trial_record record;
  record.trial_index = index;
  record.verdict = outcome;
  record.reason = std::move(reason);
  record.wall_seconds = 0.5;
  return record;
}

TEST(VerdictLine, PassCountsTheTrialsAndSaysWhatJudgedThem) {
  sweep_outcome outcome;
  outcome.trials = {trial(0, verdict::pass), trial(1, verdict::pass)};
  outcome.judgement = "confound against cell base: 0 SLOWER, 0 UNKNOWN of 3 row(s)";
  EXPECT_EQ(verdict_line(outcome, 2),
            "aorta: PASS: 2 trial(s): 2 passed, 0 failed, 0 skipped; confound against cell base: "
            "0 SLOWER, 0 UNKNOWN of 3 row(s)");
}

TEST(VerdictLine, FailNamesTheFirstFailedTrialAndTheFirstLineOfItsReason) {
  sweep_outcome outcome;
  outcome.code = exit_code::failed;
  outcome.trials = {trial(0, verdict::pass),
                    trial(1, verdict::fail, "regression against the baseline:\ntest  quantity"),
                    trial(2, verdict::fail, "payload exited 3 (expected 0)")};
  EXPECT_EQ(verdict_line(outcome, 3),
            "aorta: FAIL: trial 1: regression against the baseline (3 trial(s): 1 passed, 2 "
            "failed, 0 skipped)");
}

TEST(VerdictLine, FailWithEveryTrialPassedPointsBelow) {
  sweep_outcome outcome;
  outcome.code = exit_code::failed;
  outcome.trials = {trial(0, verdict::pass)};
  EXPECT_THAT(verdict_line(outcome, 1), HasSubstr("the judgement after the trials failed (below)"));
}

TEST(VerdictLine, SkipAndInterruption) {
  sweep_outcome skipped;
  skipped.code = exit_code::skipped;
  skipped.trials = {trial(0, verdict::skip, "no baseline for test 't'. Record one:\n  aorta ...")};
  EXPECT_EQ(verdict_line(skipped, 1), "aorta: SKIP: no baseline for test 't'. Record one");
  sweep_outcome stopped;
  stopped.code = static_cast<exit_code>(130);
  stopped.trials = {trial(0, verdict::pass)};
  EXPECT_EQ(verdict_line(stopped, 5),
            "aorta: INTERRUPTED (exit 130): stopped after 1 of 5 trial(s)");
}

std::vector<aorta::reporting::event> lines_of(const std::string& text) {
  return {aorta::reporting::text_event{text}};
}

std::string shown(const std::vector<aorta::reporting::event>& events) {
  std::ostringstream out;
  aorta::reporting::console_reporter console(out, out);
  for (const auto& each : events) console.report(each);
  return out.str();
}

TEST(TrialConsole, ProgressLinePerTrialKeepsFailuresAndTheLastTrial) {
  std::ostringstream live;
  aorta::reporting::console_reporter screen(live, live);
  trial_console console;
  console.live = &screen;
  console.planned = 3;
  console.trial_ended("trial 0", trial(0, verdict::pass), lines_of("lines of trial 0\n"));
  console.trial_ended("trial 1", trial(1, verdict::fail, "payload exited 3"),
                      lines_of("lines of trial 1\n"));
  console.trial_ended("trial 2", trial(2, verdict::pass), lines_of("lines of trial 2\n"));
  EXPECT_EQ(live.str(), "aorta: [1/3] trial 0: pass (0.50 s)\n"
                        "aorta: [2/3] trial 1: fail (0.50 s): payload exited 3\n"
                        "aorta: [3/3] trial 2: pass (0.50 s)\n");
  EXPECT_EQ(shown(console.failed_detail), "lines of trial 1\n");
  EXPECT_EQ(shown(console.last_detail), "lines of trial 2\n");
}

TEST(TrialConsole, QuietPrintsNoProgressAndDropsTheLastPassingTrial) {
  std::ostringstream live;
  aorta::reporting::console_reporter screen(live, live,
                                            aorta::reporting::console_options{"aorta: ", false});
  trial_console console;
  console.detail = console_detail::quiet;
  console.live = &screen;
  console.trial_ended("trial 0", trial(0, verdict::pass), lines_of("lines of trial 0\n"));
  EXPECT_EQ(live.str(), "");
  sweep_outcome outcome;
  outcome.trials = {trial(0, verdict::pass)};
  aorta::reporting::event_recorder after;
  after.report(aorta::reporting::text_event{"summary\n"});
  report_verdict_and_detail(console, outcome, after);
  EXPECT_EQ(live.str(), "aorta: PASS: 1 trial(s): 1 passed, 0 failed, 0 skipped\nsummary\n");
}

TEST(PayloadLogTail, TheLastLinesOfALongLogFromItsEndOnly) {
  const scratch_dir scratch;
  std::string log;
  for (int line = 0; line < 5000; ++line) log += "line " + std::to_string(line) + "\n";
  write_file(scratch / "stderr.log", log);
  write_file(scratch / "stdout.log", "");
  const std::string tail = payload_log_tail(scratch.path(), "trial 0");
  EXPECT_THAT(tail, HasSubstr("the payload's stdout.log ("));
  EXPECT_THAT(tail, HasSubstr("stdout.log): empty\n"));
  EXPECT_THAT(tail, HasSubstr("stderr.log), last 10 line(s):\n  line 4990\n"));
  EXPECT_THAT(tail, HasSubstr("  line 4999\n"));
  EXPECT_THAT(tail, Not(HasSubstr("line 4989\n")));
}

TEST(PayloadLogTail, ALogThatIsNoRegularFileIsNotRead) {
  const scratch_dir scratch;
  ASSERT_EQ(::mkfifo((scratch / "stderr.log").c_str(), 0600), 0);
  // A FIFO is skipped (not a regular file): reading it would block on a writer that never comes.
  EXPECT_EQ(payload_log_tail(scratch.path(), "trial 0"), "");
}

TEST(PayloadLogTail, NoLogsNoLines) {
  const scratch_dir scratch;
  EXPECT_EQ(payload_log_tail(scratch.path() / "never_started", "trial 0"), "");
}

}  // namespace
}  // namespace aorta::detail
