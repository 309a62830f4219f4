// The reporters between the stages and the screen (harness/src/reporting/): the console prints
// each event as the line docs/cli.md shows, the CTest reporter prints only measurements, the
// multiplexer hands each event to every reporter in order, and the recorder holds the account but
// never a diagnostic.
#include "reporting/console_reporter.hpp"
#include "reporting/ctest_reporter.hpp"
#include "reporting/event_recorder.hpp"
#include "reporting/jsonl_reporter.hpp"
#include "reporting/line_stream.hpp"
#include "reporting/reporter_fanout.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <sstream>

namespace {

using namespace aorta::reporting;

aorta::check_result judged(bool passed) {
  aorta::check_result result;
  result.expression = "count(\"k\") == 1";
  result.passed = passed;
  result.actual = "2";
  result.message = "  matched kernels: k (2)";
  return result;
}

TEST(ConsoleReporter, PrintsEachEventAsItsLine) {
  std::ostringstream out;
  std::ostringstream err;
  console_reporter console(out, err);
  console.report(plan_event{"r.yaml", "T-1", "collectors [proton], 3 trial(s), 1 check(s)"});
  console.report(check_event{judged(true), false});
  console.report(check_event{judged(false), false});
  console.report(trial_verdict_event{"trial 0", aorta::verdict::fail, "check failed: x"});
  console.report(progress_event{"trial 0", 1, 3, aorta::verdict::fail, 1.5, "check failed: x"});
  console.report(note_event{severity::warning, "slow disk", channel::diagnostic});
  console.report(measurements_event{{{"m", "1"}}});
  EXPECT_EQ(out.str(),
            "aorta: recipe r.yaml (T-1): collectors [proton], 3 trial(s), 1 check(s)\n"
            "aorta: check PASS  count(\"k\") == 1  (actual 2)\n"
            "aorta: check FAIL  count(\"k\") == 1\n  matched kernels: k (2)\n"
            "aorta: trial 0: fail (check failed: x)\n"
            "aorta: [1/3] trial 0: fail (1.50 s): check failed: x\n");
  EXPECT_EQ(err.str(), "aorta: warning: slow disk\n");
}

TEST(ConsoleReporter, AortaCheckPrintsItsCheckLinesBare) {
  std::ostringstream out;
  std::ostringstream err;
  console_reporter console(out, err, console_options{"", true});
  console.report(check_event{judged(true), false});
  EXPECT_EQ(out.str(), "check PASS  count(\"k\") == 1  (actual 2)\n");
}

TEST(ConsoleReporter, QuietDropsProgressOnly) {
  std::ostringstream out;
  std::ostringstream err;
  console_reporter console(out, err, console_options{"aorta: ", false});
  console.report(progress_event{"trial 0", 1, 3, aorta::verdict::pass, 1.5, ""});
  console.report(run_verdict_event{"aorta: PASS: 1 trial(s)"});
  EXPECT_EQ(out.str(), "aorta: PASS: 1 trial(s)\n");
}

TEST(ConsoleReporter, QuotesACommandSoAShellReadsItBack) {
  EXPECT_EQ(pasteable_command({"python3", "-c", "print('a b')"}),
            "python3 -c 'print('\\''a b'\\'')'");
}

TEST(CTestReporter, PrintsMeasurementsAndNothingElse) {
  std::ostringstream out;
  ctest_reporter ctest(out);
  ctest.report(note_event{severity::info, "not a measurement"});
  ctest.report(measurements_event{{{"check: a<b", "1.5"}}});
  EXPECT_EQ(out.str(),
            "<CTestMeasurement type=\"numeric/double\" name=\"check: a&lt;b\">1.5"
            "</CTestMeasurement>\n");
}

TEST(ReporterFanout, HandsEveryEventToEachReporterInOrder) {
  std::ostringstream out;
  std::ostringstream err;
  console_reporter console(out, err);
  ctest_reporter ctest(out);
  reporter_fanout both;
  both.add(console);
  both.add(ctest);
  both.report(measurements_event{{{"m", "2"}}});
  both.report(gate_event{"gate PASS"});
  EXPECT_EQ(out.str(),
            "<CTestMeasurement type=\"numeric/double\" name=\"m\">2</CTestMeasurement>\n"
            "aorta: gate PASS\n");
}

TEST(EventRecorder, HoldsTheAccountAndPassesDiagnosticsOn) {
  std::ostringstream out;
  std::ostringstream err;
  console_reporter console(out, err);
  event_recorder held(&console);
  held.report(note_event{severity::info, "held line"});
  held.report(note_event{severity::error, "now", channel::diagnostic});
  EXPECT_EQ(out.str(), "");
  EXPECT_EQ(err.str(), "aorta: error: now\n");
  EXPECT_FALSE(held.empty());
  held.replay(console);
  EXPECT_TRUE(held.empty());
  EXPECT_EQ(out.str(), "aorta: held line\n");
}

// The gate's bridge: each finished line is one text event, in order with the events around it; a
// flush hands on a line not yet finished.
TEST(LineStream, EachLineBecomesATextEventInOrder) {
  event_recorder seen;
  seen.report(note_event{severity::info, "before"});
  {
    line_stream lines(seen);
    lines << "aorta: gate: one\naorta: gate: two\npart";
    lines.flush();
    seen.report(note_event{severity::info, "between"});
    lines << "ial\n";
  }
  const auto events = seen.take();
  ASSERT_EQ(events.size(), 6U);
  EXPECT_EQ(std::get<text_event>(events[1]).text, "aorta: gate: one\n");
  EXPECT_EQ(std::get<text_event>(events[2]).text, "aorta: gate: two\n");
  EXPECT_EQ(std::get<text_event>(events[3]).text, "part");
  EXPECT_EQ(std::get<note_event>(events[4]).text, "between");
  EXPECT_EQ(std::get<text_event>(events[5]).text, "ial\n");
}

TEST(JsonlReporter, OneObjectALineNamingTheFormatAndTheEvent) {
  std::ostringstream out;
  jsonl_reporter events(out);
  events.report(check_event{judged(false), false});
  events.report(note_event{severity::warning, "bad byte \xff here", channel::diagnostic});
  std::istringstream lines(out.str());
  std::string line;
  ASSERT_TRUE(std::getline(lines, line));
  const auto check = nlohmann::json::parse(line);
  EXPECT_EQ(check.at("schema"), "aorta-events");
  EXPECT_EQ(check.at("schema_version"), 1);
  EXPECT_EQ(check.at("event"), "check");
  EXPECT_EQ(check.at("expression"), "count(\"k\") == 1");
  EXPECT_EQ(check.at("passed"), false);
  EXPECT_EQ(check.at("actual"), "2");
  EXPECT_TRUE(check.at("value").is_null());
  ASSERT_TRUE(std::getline(lines, line));
  const auto note = nlohmann::json::parse(line);
  EXPECT_EQ(note.at("event"), "note");
  EXPECT_EQ(note.at("level"), "warning");
  EXPECT_EQ(note.at("channel"), "diagnostic");
  EXPECT_EQ(note.at("text"), "bad byte \xef\xbf\xbd here");  // U+FFFD for the bad byte
  EXPECT_FALSE(std::getline(lines, line));
}

}  // namespace
