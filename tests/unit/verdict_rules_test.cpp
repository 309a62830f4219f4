// The rules that decide a trial's verdict: which earlier verdict a later finding overrides, and
// which reason the record keeps. Each case starts from a verdict a real stage leaves behind.
#include "aorta/trial_record.hpp"
#include "record/verdict_rules.hpp"

#include <gtest/gtest.h>

#include <optional>
#include <string>

namespace {

using aorta::trial_record;
using aorta::verdict;

trial_record judged(verdict outcome, const std::string& reason) {
  trial_record record;
  aorta::detail::decide_verdict(record, outcome, reason);
  return record;
}

TEST(VerdictRules, DecideSetsTheVerdictAndItsReasonTogether) {
  const trial_record record = judged(verdict::skip, "dry run: nothing was launched");
  EXPECT_EQ(record.verdict, verdict::skip);
  EXPECT_EQ(record.reason, "dry run: nothing was launched");
}

TEST(VerdictRules, PassKeepsTheReason) {
  trial_record record = judged(verdict::error, "kept");
  aorta::detail::record_pass(record);
  EXPECT_EQ(record.verdict, verdict::pass);
  EXPECT_EQ(record.reason, "kept");
}

TEST(VerdictRules, TheFirstFailureOfAPassingTrialNamesIt) {
  trial_record record = judged(verdict::pass, "");
  aorta::detail::fail_if_passing(record, "check failed: first");
  aorta::detail::fail_if_passing(record, "check failed: second");
  EXPECT_EQ(record.verdict, verdict::fail);
  EXPECT_EQ(record.reason, "check failed: first");
  for (const verdict before : {verdict::skip, verdict::error}) {
    trial_record other = judged(before, "earlier");
    aorta::detail::fail_if_passing(other, "later");
    EXPECT_EQ(other.verdict, before);
    EXPECT_EQ(other.reason, "earlier");
  }
}

TEST(VerdictRules, AnIncompleteLogFailsASkipButNotAFailureOrAnError) {
  trial_record skipped = judged(verdict::skip, "environment");
  aorta::detail::fail_unless_failed(skipped, "log incomplete");
  EXPECT_EQ(skipped.verdict, verdict::fail);
  EXPECT_EQ(skipped.reason, "log incomplete");
  for (const verdict before : {verdict::fail, verdict::error}) {
    trial_record other = judged(before, "earlier");
    aorta::detail::fail_unless_failed(other, "log incomplete");
    EXPECT_EQ(other.verdict, before);
    EXPECT_EQ(other.reason, "earlier");
  }
}

TEST(VerdictRules, MissingRanksFailAllButAnInterruptedTrialAndKeepAnEarlierFailure) {
  trial_record failed = judged(verdict::fail, "payload exited 1 (expected 0)");
  aorta::detail::fail_unless_interrupted(failed, "rank 1 wrote nothing");
  EXPECT_EQ(failed.verdict, verdict::fail);
  EXPECT_EQ(failed.reason, "rank 1 wrote nothing (payload exited 1 (expected 0))");
  trial_record skipped = judged(verdict::skip, "environment");
  aorta::detail::fail_unless_interrupted(skipped, "rank 1 wrote nothing");
  EXPECT_EQ(skipped.reason, "rank 1 wrote nothing");
  trial_record interrupted = judged(verdict::error, "interrupted");
  aorta::detail::fail_unless_interrupted(interrupted, "rank 1 wrote nothing");
  EXPECT_EQ(interrupted.verdict, verdict::error);
  EXPECT_EQ(interrupted.reason, "interrupted");
}

TEST(VerdictRules, TheGateTurnsOnlyAPass) {
  trial_record passed = judged(verdict::pass, "");
  aorta::detail::lay_over_gate(passed, verdict::fail, "gate: worse");
  EXPECT_EQ(passed.verdict, verdict::fail);
  EXPECT_EQ(passed.reason, "gate: worse");
  EXPECT_TRUE(passed.verdict_from_gate);
  trial_record failed = judged(verdict::fail, "own");
  aorta::detail::lay_over_gate(failed, verdict::skip, "gate: too few");
  EXPECT_EQ(failed.verdict, verdict::fail);
  EXPECT_FALSE(failed.verdict_from_gate);
  trial_record stands = judged(verdict::pass, "");
  aorta::detail::lay_over_gate(stands, std::nullopt, "");
  EXPECT_EQ(stands.verdict, verdict::pass);
  EXPECT_FALSE(stands.verdict_from_gate);
}

}  // namespace
