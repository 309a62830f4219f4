// process_result::describe(): the one-line account of how a child ended.
#include "aorta/process.hpp"

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

TEST(ProcessResultDescribe, TimeoutNamesTheKillingSignal) {
  process_result result;
  result.timed_out = true;
  result.wall_seconds = 5.04;
  result.signal = SIGTERM;
  EXPECT_EQ(result.describe(), "timed out after 5.0 s (killed by SIGTERM)");
  result.signal = SIGKILL;
  result.wall_seconds = 0.36;
  EXPECT_EQ(result.describe(), "timed out after 0.4 s (killed by SIGKILL)");
}

TEST(ProcessResultDescribe, TimeoutAfterWhichTheChildExitedItself) {
  process_result result;
  result.timed_out = true;
  result.wall_seconds = 2.0;
  result.exit_status = 143;
  EXPECT_EQ(result.describe(), "timed out after 2.0 s (then exit 143)");
}

TEST(ProcessResultDescribe, NothingKnown) {
  EXPECT_EQ(process_result{}.describe(), "exit status unknown");
}

}  // namespace
}  // namespace aorta
