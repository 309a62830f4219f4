// process_result::describe(): the one-line account of how a child ended.
#include "process/process.hpp"

#include <gtest/gtest.h>

#include <csignal>

namespace aorta {
namespace {

TEST(ProcessResultDescribe, ExitStatus) {
  process_result result;
  result.exit_status = 3;
  EXPECT_EQ(result.describe(), "exit 3");
  EXPECT_FALSE(result.succeeded());
  result.exit_status = 0;
  EXPECT_EQ(result.describe(), "exit 0");
  EXPECT_TRUE(result.succeeded());
}

TEST(ProcessResultDescribe, SignalNamesTheSignal) {
  process_result result;
  result.signal = SIGSEGV;
  EXPECT_EQ(result.describe(), "signal 11 (SIGSEGV)");
  result.signal = SIGINT;
  EXPECT_EQ(result.describe(), "signal 2 (SIGINT)");
  EXPECT_FALSE(result.succeeded());
}

TEST(ProcessResultDescribe, UnknownSignalNumberStaysANumber) {
  process_result result;
  result.signal = 200;
  EXPECT_EQ(result.describe(), "signal 200");
}

// The configured limit is what is said, never the wall time (which includes the grace).
TEST(ProcessResultDescribe, TimeoutNamesTheLimitAndTheEndingSignal) {
  process_result result;
  result.timed_out = true;
  result.timeout_seconds = 5.0;
  result.wall_seconds = 5.04;
  result.signal = SIGTERM;
  EXPECT_EQ(result.describe(), "timed out after 5.0 s; ended by SIGTERM");
  EXPECT_EQ(result.describe("timeout: 5 from r.yaml"),
            "timed out after 5.0 s (timeout: 5 from r.yaml); ended by SIGTERM");
}

TEST(ProcessResultDescribe, TimeoutFollowedBySigkillSaysSigtermWasIgnoredAndTheGrace) {
  process_result result;
  result.timed_out = true;
  result.timeout_seconds = 2.0;
  result.wall_seconds = 7.02;
  result.signal = SIGKILL;
  result.killed_after_grace = true;
  result.kill_grace_seconds = 5.0;
  EXPECT_EQ(result.describe("timeout: 2 from RECIPE"),
            "timed out after 2.0 s (timeout: 2 from RECIPE); ignored SIGTERM, killed by SIGKILL "
            "after the 5 s grace");
}

TEST(ProcessResultDescribe, TimeoutAfterWhichTheChildExitedItself) {
  process_result result;
  result.timed_out = true;
  result.timeout_seconds = 2.0;
  result.wall_seconds = 2.3;
  result.exit_status = 143;
  EXPECT_EQ(result.describe(), "timed out after 2.0 s; then exit 143");
}

TEST(ProcessResultDescribe, NothingKnown) {
  EXPECT_EQ(process_result{}.describe(), "exit status unknown");
}

}  // namespace
}  // namespace aorta
