// run_process and the lifetime of what it starts: interrupts passed on and escalated, processes
// that escape the group found and ended, the group taken down when aorta itself is SIGKILLed,
// and a caller's stop condition. Real processes and real signals; every wait polls for a state
// with a generous limit, so a loaded machine slows these tests down but does not fail them.
#include "aorta/error.hpp"
#include "process/process.hpp"
#include "unit/process_test_support.hpp"

#include <gtest/gtest.h>

#include <sys/wait.h>

#include <csignal>
#include <thread>

namespace aorta {
namespace {

using namespace std::chrono_literals;
using test::logged_spec;
using test::scratch_dir;

// Waits until `path` holds a pid (the payload wrote it), up to `limit`.
pid_t wait_for_pid(const std::filesystem::path& path, std::chrono::milliseconds limit = 30s) {
  const auto give_up = std::chrono::steady_clock::now() + limit;
  while (std::chrono::steady_clock::now() < give_up) {
    if (const pid_t pid = test::read_pid(path); pid > 0) return pid;
    std::this_thread::sleep_for(20ms);
  }
  return 0;
}

// Raises `signal_number` in this process `times` times, once the payload has written its pid
// file (so the signal reaches a running payload, not a spawn in progress).
std::thread raise_when_started(const std::filesystem::path& pidfile, int signal_number,
                               int times = 1) {
  return std::thread([pidfile, signal_number, times] {
    if (wait_for_pid(pidfile) <= 0) return;
    for (int i = 0; i < times; ++i) {
      if (i > 0) std::this_thread::sleep_for(300ms);
      ::raise(signal_number);
    }
  });
}

TEST(RunProcessInterrupt, AnInterruptIsPassedOnAndRecorded) {
  for (const int signal_number : {SIGINT, SIGTERM, SIGHUP}) {
    scratch_dir dir;
    auto spec = logged_spec(dir, {"/bin/sh", "-c", R"(echo $$ > "$1"; exec sleep 60)", "sh",
                                  (dir / "pidfile").string()});
    std::thread interrupter = raise_when_started(dir / "pidfile", signal_number);
    const auto result = run_process(spec);
    interrupter.join();
    EXPECT_EQ(result.interrupted_by, signal_number);
    EXPECT_EQ(result.signal, signal_number);
    EXPECT_FALSE(result.killed_after_grace);
    EXPECT_LT(result.wall_seconds, 30.0);
  }
}

TEST(RunProcessInterrupt, APayloadIgnoringTheInterruptIsKilledAfterTheGrace) {
  scratch_dir dir;
  auto spec = logged_spec(dir, {"/bin/sh", "-c", R"(trap '' TERM; echo $$ > "$1"; sleep 60)",
                                "sh", (dir / "pidfile").string()});
  spec.kill_grace = 500ms;
  std::thread interrupter = raise_when_started(dir / "pidfile", SIGTERM);
  const auto result = run_process(spec);
  interrupter.join();
  EXPECT_EQ(result.interrupted_by, SIGTERM);
  EXPECT_EQ(result.signal, SIGKILL);
  EXPECT_TRUE(result.killed_after_grace);
  EXPECT_GE(result.wall_seconds, 0.5);
  EXPECT_LT(result.wall_seconds, 30.0);
}

// No timeout, a grace longer than the test's patience: only the second signal can end it soon.
TEST(RunProcessInterrupt, ASecondInterruptKillsAtOnce) {
  scratch_dir dir;
  auto spec = logged_spec(dir, {"/bin/sh", "-c", R"(trap '' TERM; echo $$ > "$1"; sleep 300)",
                                "sh", (dir / "pidfile").string()});
  spec.kill_grace = 600s;
  std::thread interrupter = raise_when_started(dir / "pidfile", SIGTERM, 2);
  const auto result = run_process(spec);
  interrupter.join();
  EXPECT_EQ(result.interrupted_by, SIGTERM);
  EXPECT_EQ(result.signal, SIGKILL);
  EXPECT_FALSE(result.killed_after_grace);
  EXPECT_LT(result.wall_seconds, 60.0);
}

TEST(RunProcessEscape, SetsidAndDoubleForkedDaemonsAreReportedAndKilled) {
  scratch_dir dir;
  // One daemon in a session of its own, one double-forked into a new session. Each writes its
  // pid once it has left the group, and the payload exits only after both did, so the group kill
  // cannot catch them first on a slow machine.
  const std::string script = R"(setsid sh -c 'echo $$ > "$0"; exec sleep 301' "$1" &
( setsid sh -c 'echo $$ > "$0"; exec sleep 302' "$2" & )
while [ ! -s "$1" ] || [ ! -s "$2" ]; do sleep 0.05; done
exit 0)";
  auto spec = logged_spec(dir, {"/bin/sh", "-c", script, "sh", (dir / "setsid.pid").string(),
                                (dir / "double.pid").string()});
  const auto result = run_process(spec);
  EXPECT_EQ(result.exit_status, 0);
  const pid_t setsid_daemon = test::read_pid(dir / "setsid.pid");
  const pid_t double_forked = test::read_pid(dir / "double.pid");
  ASSERT_GT(setsid_daemon, 0);
  ASSERT_GT(double_forked, 0);
  bool saw_setsid = false;
  bool saw_double = false;
  for (const auto& escaped : result.escaped) {
    if (escaped.pid == setsid_daemon) {
      saw_setsid = true;
      EXPECT_NE(escaped.command.find("sleep 301"), std::string::npos) << escaped.command;
    }
    if (escaped.pid == double_forked) {
      saw_double = true;
      EXPECT_NE(escaped.command.find("sleep 302"), std::string::npos) << escaped.command;
    }
  }
  EXPECT_TRUE(saw_setsid) << "setsid daemon " << setsid_daemon << " not reported";
  EXPECT_TRUE(saw_double) << "double-forked daemon " << double_forked << " not reported";
  EXPECT_TRUE(test::dies_within(setsid_daemon, 10s));
  EXPECT_TRUE(test::dies_within(double_forked, 10s));
}

TEST(RunProcessEscape, AWellBehavedPayloadReportsNothing) {
  scratch_dir dir;
  const auto result =
      run_process(logged_spec(dir, {"/bin/sh", "-c", "sleep 0.1 & sleep 0.1 & wait"}));
  EXPECT_EQ(result.exit_status, 0);
  EXPECT_TRUE(result.escaped.empty());
}

// The process that would be aorta is a fork of this test, SIGKILLed while its payload runs.
TEST(RunProcessKeeper, TheGroupDiesWithAKilledParent) {
  scratch_dir dir;
  const auto pidfile = dir / "pids";
  const pid_t runner = ::fork();
  ASSERT_GE(runner, 0);
  if (runner == 0) {
    auto spec = logged_spec(dir, {"/bin/sh", "-c", R"(sleep 300 & echo $! > "$1"; sleep 300)",
                                  "sh", pidfile.string()});
    static_cast<void>(run_process(spec));
    ::_exit(0);
  }
  const pid_t grandchild = wait_for_pid(pidfile);
  ASSERT_GT(grandchild, 0);
  ::kill(runner, SIGKILL);
  int status = 0;
  ::waitpid(runner, &status, 0);
  EXPECT_TRUE(test::dies_within(grandchild, 20s)) << "payload " << grandchild << " survived";
}

TEST(RunProcessStop, StopWhenEndsThePayloadAndSaysSo) {
  scratch_dir dir;
  const auto marker = dir / "capture";
  auto spec = logged_spec(dir, {"/bin/sh", "-c", R"(: > "$1"; exec sleep 300)", "sh",
                                marker.string()});
  spec.stop_check_interval = 50ms;
  int asked = 0;
  spec.stop_when = [&] {
    ++asked;
    return std::filesystem::exists(marker);
  };
  const auto result = run_process(spec);
  EXPECT_TRUE(result.stopped);
  EXPECT_FALSE(result.timed_out);
  EXPECT_EQ(result.signal, SIGTERM);
  EXPECT_GE(asked, 1);
  EXPECT_LT(result.wall_seconds, 60.0);
}

TEST(RunProcessTimeout, ALimitBeyondTheLargestIsRefusedBeforeAnythingRuns) {
  scratch_dir dir;
  auto spec = logged_spec(dir, {"/bin/sh", "-c", R"(: > "$1")", "sh", (dir / "ran").string()});
  spec.timeout = std::chrono::duration_cast<std::chrono::milliseconds>(max_process_timeout);
  EXPECT_THROW(static_cast<void>(run_process(spec)), setup_error);
  EXPECT_FALSE(std::filesystem::exists(dir / "ran"));
}

}  // namespace
}  // namespace aorta
