// run_process with real programs: how children end, timeouts that take down the whole process
// group, forwarded signals and the teeing of stdout/stderr into their logs.
#include "aorta/error.hpp"
#include "process/process.hpp"
#include "unit/process_test_support.hpp"

#include <gtest/gtest.h>

#include <csignal>
#include <cstdint>
#include <thread>

namespace aorta {
namespace {

using namespace std::chrono_literals;
using test::logged_spec;
using test::read_file;
using test::scratch_dir;
using steady = std::chrono::steady_clock;

double seconds_since(steady::time_point start) {
  return std::chrono::duration<double>(steady::now() - start).count();
}

TEST(RunProcessEnding, ExitStatusesAreReported) {
  scratch_dir dir;
  const auto ok = run_process(logged_spec(dir, {"/bin/true"}));
  EXPECT_EQ(ok.exit_status, 0);
  EXPECT_FALSE(ok.signal.has_value());
  EXPECT_FALSE(ok.timed_out);
  EXPECT_TRUE(ok.succeeded());
  EXPECT_GT(ok.wall_seconds, 0.0);

  const auto failed = run_process(logged_spec(dir, {"/bin/false"}));
  EXPECT_EQ(failed.exit_status, 1);
  EXPECT_FALSE(failed.succeeded());

  const auto three = run_process(logged_spec(dir, {"/bin/sh", "-c", "exit 3"}));
  EXPECT_EQ(three.exit_status, 3);
  EXPECT_EQ(three.describe(), "exit 3");
}

TEST(RunProcessEnding, DeathBySignalIsReported) {
  scratch_dir dir;
  const auto result =
      run_process(logged_spec(dir, {"/bin/sh", "-c", "ulimit -c 0; kill -SEGV $$"}));
  EXPECT_FALSE(result.exit_status.has_value());
  EXPECT_EQ(result.signal, SIGSEGV);
  EXPECT_EQ(result.describe(), "signal 11 (SIGSEGV)");
}

TEST(RunProcessTimeout, TimeoutKillsTheChildAndItsGrandchild) {
  scratch_dir dir;
  auto spec = logged_spec(dir, {"/bin/sh", "-c", R"(sleep 100 & echo $! > "$1"; sleep 100)", "sh",
                                (dir / "pidfile").string()});
  spec.timeout = 300ms;
  const auto start = steady::now();
  const auto result = run_process(spec);
  EXPECT_LT(seconds_since(start), 3.0);
  EXPECT_TRUE(result.timed_out);
  EXPECT_EQ(result.signal, SIGTERM);
  EXPECT_GE(result.wall_seconds, 0.3);
  EXPECT_EQ(result.describe().rfind("timed out after ", 0), 0u) << result.describe();
  EXPECT_DOUBLE_EQ(result.timeout_seconds, 0.3);
  EXPECT_EQ(result.describe(), "timed out after 0.3 s; ended by SIGTERM");

  const pid_t grandchild = test::read_pid(dir / "pidfile");
  ASSERT_GT(grandchild, 0);
  EXPECT_TRUE(test::dies_within(grandchild, 2s)) << "grandchild " << grandchild << " survived";
}

TEST(RunProcessTimeout, IgnoredSigtermIsFollowedBySigkillAfterTheGrace) {
  scratch_dir dir;
  auto spec = logged_spec(dir, {"/bin/sh", "-c", "trap '' TERM; sleep 100"});
  spec.timeout = 200ms;
  spec.kill_grace = 400ms;
  const auto result = run_process(spec);
  EXPECT_TRUE(result.timed_out);
  EXPECT_EQ(result.signal, SIGKILL);
  EXPECT_GE(result.wall_seconds, 0.6);
  EXPECT_LT(result.wall_seconds, 4.0);
  EXPECT_TRUE(result.killed_after_grace);
  EXPECT_EQ(result.describe(),
            "timed out after 0.2 s; ignored SIGTERM, killed by SIGKILL after the 0.4 s grace");
}

TEST(RunProcessTimeout, ChildMayHandleSigtermAndExitItsOwnWay) {
  scratch_dir dir;
  auto spec = logged_spec(dir, {"/bin/sh", "-c", "trap 'exit 7' TERM; sleep 100 & wait"});
  spec.timeout = 300ms;
  const auto result = run_process(spec);
  EXPECT_TRUE(result.timed_out);
  EXPECT_EQ(result.exit_status, 7);
  EXPECT_FALSE(result.signal.has_value());
}

TEST(RunProcessCleanup, BackgroundGrandchildDiesWhenTheChildExits) {
  scratch_dir dir;
  // The grandchild keeps the output pipes open; we must neither wait for it nor leave it behind.
  auto spec = logged_spec(dir, {"/bin/sh", "-c", R"(sleep 100 & echo $! > "$1"; exit 0)", "sh",
                                (dir / "pidfile").string()});
  const auto start = steady::now();
  const auto result = run_process(spec);
  EXPECT_LT(seconds_since(start), 3.0);
  EXPECT_EQ(result.exit_status, 0);
  EXPECT_FALSE(result.timed_out);
  const pid_t grandchild = test::read_pid(dir / "pidfile");
  ASSERT_GT(grandchild, 0);
  EXPECT_TRUE(test::dies_within(grandchild, 2s)) << "grandchild " << grandchild << " survived";
}

TEST(RunProcessCleanup, OutputHeldOpenByAnEscapedProcessDoesNotHangUs) {
  scratch_dir dir;
  // setsid takes the sleeper out of the group, beyond our kill; it still holds stdout.
  auto spec = logged_spec(dir, {"/bin/sh", "-c",
                                R"(printf before; setsid sleep 30 & echo $! > "$1"; sleep 0.3)",
                                "sh", (dir / "pidfile").string()});
  const auto start = steady::now();
  const auto result = run_process(spec);
  const double elapsed = seconds_since(start);
  const pid_t escaped = test::read_pid(dir / "pidfile");
  if (escaped > 0) ::kill(escaped, SIGKILL);
  EXPECT_EQ(result.exit_status, 0);
  EXPECT_LT(elapsed, 5.0);
  EXPECT_EQ(read_file(dir / "stdout.log"), "before");
}

TEST(RunProcessSignals, SigintIsForwardedAndHandlersAreRestored) {
  scratch_dir dir;
  struct sigaction before {};
  ASSERT_EQ(::sigaction(SIGINT, nullptr, &before), 0);

  std::thread interrupter([] {
    std::this_thread::sleep_for(200ms);
    ::raise(SIGINT);
  });
  const auto start = steady::now();
  const auto result = run_process(logged_spec(dir, {"sleep", "5"}));
  interrupter.join();
  EXPECT_EQ(result.signal, SIGINT);
  EXPECT_FALSE(result.timed_out);
  EXPECT_LT(seconds_since(start), 3.0);

  struct sigaction after {};
  ASSERT_EQ(::sigaction(SIGINT, nullptr, &after), 0);
  EXPECT_EQ(after.sa_handler, before.sa_handler);
}

TEST(RunProcessSignals, SigtermIsForwarded) {
  scratch_dir dir;
  std::thread terminator([] {
    std::this_thread::sleep_for(200ms);
    ::raise(SIGTERM);
  });
  const auto result = run_process(logged_spec(dir, {"sleep", "5"}));
  terminator.join();
  EXPECT_EQ(result.signal, SIGTERM);
  EXPECT_LT(result.wall_seconds, 3.0);
}

TEST(RunProcessOutput, StdoutAndStderrGoToTheirOwnLogs) {
  scratch_dir dir;
  const auto result = run_process(
      logged_spec(dir, {"/bin/sh", "-c", "printf 'out 1\\n'; printf 'err 1\\n' >&2; printf tail"}));
  EXPECT_EQ(result.exit_status, 0);
  EXPECT_EQ(read_file(dir / "stdout.log"), "out 1\ntail");
  EXPECT_EQ(read_file(dir / "stderr.log"), "err 1\n");
}

TEST(RunProcessOutput, SeveralMegabytesOfBinaryOnBothStreamsArriveIntact) {
  scratch_dir dir;
  std::string payload(3 * 1024 * 1024 + 17, '\0');
  std::uint32_t state = 12345;
  for (auto& byte : payload) {
    state = state * 1103515245u + 12345u;
    byte = static_cast<char>(state >> 24);
  }
  test::write_file(dir / "payload.bin", payload);
  const auto result =
      run_process(logged_spec(dir, {"/bin/sh", "-c", R"(cat "$1" & cat "$1" >&2; wait)", "sh",
                                    (dir / "payload.bin").string()}));
  EXPECT_EQ(result.exit_status, 0);
  const std::string out = read_file(dir / "stdout.log");
  const std::string err = read_file(dir / "stderr.log");
  EXPECT_EQ(out.size(), payload.size());
  EXPECT_EQ(err.size(), payload.size());
  EXPECT_TRUE(out == payload) << "stdout log differs from the payload";
  EXPECT_TRUE(err == payload) << "stderr log differs from the payload";
}

TEST(RunProcessOutput, EchoCopiesToOurStdoutAndStderr) {
  scratch_dir dir;
  auto spec = logged_spec(dir, {"/bin/sh", "-c", "printf 'to out'; printf 'to err' >&2"});
  spec.echo = true;
  testing::internal::CaptureStdout();
  testing::internal::CaptureStderr();
  const auto result = run_process(spec);
  const std::string echoed_out = testing::internal::GetCapturedStdout();
  const std::string echoed_err = testing::internal::GetCapturedStderr();
  EXPECT_EQ(result.exit_status, 0);
  EXPECT_EQ(echoed_out, "to out");
  EXPECT_EQ(echoed_err, "to err");
  EXPECT_EQ(read_file(dir / "stdout.log"), "to out");
}

TEST(RunProcessOutput, OneLogFileForBothStreamsKeepsEverything) {
  scratch_dir dir;
  auto spec =
      logged_spec(dir, {"/bin/sh", "-c", "printf a; sleep 0.1; printf b >&2; sleep 0.1; printf c"});
  spec.stderr_log = spec.stdout_log;
  EXPECT_EQ(run_process(spec).exit_status, 0);
  EXPECT_EQ(read_file(dir / "stdout.log"), "abc");
}

TEST(RunProcessOutput, NoLogsAndNoEchoIsFine) {
  scratch_dir dir;
  auto spec = logged_spec(dir, {"/bin/sh", "-c", "printf discarded; exit 4"});
  spec.stdout_log.clear();
  spec.stderr_log.clear();
  EXPECT_EQ(run_process(spec).exit_status, 4);
  EXPECT_FALSE(std::filesystem::exists(dir / "stdout.log"));
}

TEST(RunProcessOutput, UnopenableLogIsASetupErrorNamingThePathAndNothingRuns) {
  scratch_dir dir;
  auto spec = logged_spec(dir, {"/bin/sh", "-c", R"(: > "$1")", "sh", (dir / "ran").string()});
  spec.stdout_log = dir / "missing" / "stdout.log";
  try {
    static_cast<void>(run_process(spec));
    FAIL() << "expected setup_error";
  } catch (const setup_error& e) {
    EXPECT_NE(std::string(e.what()).find("'" + spec.stdout_log.string() + "'"), std::string::npos)
        << e.what();
  }
  EXPECT_FALSE(std::filesystem::exists(dir / "ran"));
}

}  // namespace
}  // namespace aorta
