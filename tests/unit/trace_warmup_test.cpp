// Per-launch times from Proton's chrome trace (captures/launch_series.hpp): one event a launch,
// the warm-up rule per kernel and file, each warm-up launch counted at the steady median. The
// traces are written here in the format Triton's TraceData.cpp dumps (the H200 capture in
// tests/fixtures/h200-scoped/trace shows it: "args.call_stack", "cat": "kernel", "dur" and "ts"
// in microseconds, "ph": "X").
#include "aorta/capture.hpp"
#include "captures/chrome_trace_reader.hpp"
#include "captures/launch_series.hpp"
#include "captures/hatchet_reader.hpp"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

namespace {

std::string event(std::string_view kernel, double ts, double dur) {
  return fmt::format(R"({{"args":{{"call_stack":["ROOT","step","{0}"]}},"cat":"kernel","dur":{2},)"
                     R"("name":"{0}","ph":"X","tid":7,"ts":{1}}})",
                     kernel, ts, dur);
}

std::string trace(const std::vector<std::string>& events) {
  std::string text = R"({"displayTimeUnit":"us","traceEvents":[)";
  for (std::size_t i = 0; i < events.size(); ++i) text += (i ? "," : "") + events[i];
  return text + "]}\n";
}

aorta::capture read(const std::string& text) {
  aorta::detail::chrome_trace_totals totals;
  std::size_t at = 0;
  aorta::detail::scan_chrome_trace(
      [&](char* data, std::size_t size) {
        const std::size_t n = std::min(size, text.size() - at);
        std::memcpy(data, text.data() + at, n);
        at += n;
        return n;
      },
      4096, totals);
  aorta::capture c;
  aorta::detail::finish_chrome_trace(totals, c);
  return c;
}

// 20 launches of a 28 us GEMM, the first three 10x, 4x and 1.5x slow, as a process's first
// launches were on an H100 (benchmarks/gpu-2026-12-06/gemm-modes.json).
std::vector<double> gemm_launches() {
  std::vector<double> us{280.0, 112.0, 42.0};
  for (int i = 0; i < 17; ++i) us.push_back(i % 2 == 0 ? 28.0 : 28.2);
  return us;
}

TEST(TraceWarmup, WarmupLaunchesCountAtTheSteadyMedian) {
  std::vector<std::string> events;
  const auto us = gemm_launches();
  for (std::size_t i = 0; i < us.size(); ++i) events.push_back(event("gemm", 100.0 * i, us[i]));
  const auto c = read(trace(events));
  ASSERT_EQ(c.kernels.size(), 1u);
  EXPECT_EQ(c.kernels[0].launches, 20u);
  // 17 steady launches (9 of 28.0, 8 of 28.2) plus 3 at their median, 28.0.
  EXPECT_NEAR(c.kernels[0].total_ns, (9 * 28.0 + 8 * 28.2 + 3 * 28.0) * 1e3, 1e-6);
  bool noted = false;
  for (const auto& n : c.notes) noted = noted || n.find("the first 3 of its 20 launches are warm-up") != std::string::npos;
  EXPECT_TRUE(noted);
  // The tree under the frame agrees with the kernel's total.
  double placed = 0.0;
  for (const auto& p : c.placements) placed += p.kernel.total_ns;
  EXPECT_NEAR(placed, c.kernels[0].total_ns, 1e-6);
}

TEST(TraceWarmup, LaunchOrderIsTsNotFileOrder) {
  // The same launches written last first: "ts" puts the slow ones first again.
  std::vector<std::string> events;
  const auto us = gemm_launches();
  for (std::size_t i = us.size(); i-- > 0;) events.push_back(event("gemm", 100.0 * i, us[i]));
  const auto c = read(trace(events));
  EXPECT_NEAR(c.kernels[0].total_ns, (9 * 28.0 + 8 * 28.2 + 3 * 28.0) * 1e3, 1e-6);
}

TEST(TraceWarmup, FewerThanEightLaunchesAreSummedAsMeasured) {
  std::vector<std::string> events;
  const std::vector<double> us{280.0, 112.0, 42.0, 28.0, 28.0, 28.0, 28.0};
  double sum = 0.0;
  for (std::size_t i = 0; i < us.size(); ++i) {
    events.push_back(event("gemm", 100.0 * i, us[i]));
    sum += us[i];
  }
  const auto c = read(trace(events));
  EXPECT_NEAR(c.kernels[0].total_ns, sum * 1e3, 1e-6);
}

TEST(TraceWarmup, EachKernelHasItsOwnSeries) {
  std::vector<std::string> events;
  const auto us = gemm_launches();
  for (std::size_t i = 0; i < us.size(); ++i) {
    events.push_back(event("gemm", 100.0 * i, us[i]));
    events.push_back(event("copy", 100.0 * i + 50.0, 5.0));  // steady from the first launch
  }
  const auto c = read(trace(events));
  ASSERT_EQ(c.kernels.size(), 2u);
  for (const auto& k : c.kernels) {
    const double expected =
        k.name.view() == "copy" ? 20 * 5.0e3 : (9 * 28.0 + 8 * 28.2 + 3 * 28.0) * 1e3;
    EXPECT_NEAR(k.total_ns, expected, 1e-6) << k.name.view();
  }
}

TEST(TraceWarmup, HostileTsFallsBackToFileOrder) {
  // A string, a huge number and a missing "ts": file order, never an error.
  std::vector<std::string> events;
  const auto us = gemm_launches();
  for (std::size_t i = 0; i < us.size(); ++i) {
    std::string e = event("gemm", 100.0 * i, us[i]);
    if (i == 4) e.replace(e.find("\"ts\":400"), 8, "\"ts\":\"x\"");
    if (i == 5) e.replace(e.find("\"ts\":500"), 8, "\"ts\":1e999");
    events.push_back(e);
  }
  const auto c = read(trace(events));
  EXPECT_NEAR(c.kernels[0].total_ns, (9 * 28.0 + 8 * 28.2 + 3 * 28.0) * 1e3, 1e-6);
}

TEST(TraceWarmup, PastTheLaunchLimitEveryLaunchIsSummedAsMeasured) {
  aorta::detail::frame_tree_builder tree;
  aorta::detail::launch_series series(8);
  const auto us = gemm_launches();
  double sum = 0.0;
  for (std::size_t i = 0; i < us.size(); ++i) {
    series.add(tree, aorta::context_frame::no_parent, "gemm", 100.0 * i, us[i] * 1e3);
    sum += us[i] * 1e3;
  }
  std::vector<std::string> notes;
  series.flush(tree, notes, "big.chrome_trace");
  aorta::capture c;
  tree.take_kernels(c);
  ASSERT_EQ(c.kernels.size(), 1u);
  EXPECT_EQ(c.kernels[0].launches, 20u);
  EXPECT_NEAR(c.kernels[0].total_ns, sum, 1e-6);
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_NE(notes[0].find("big.chrome_trace: more than 8 kernel launches"), std::string::npos)
      << notes[0];
}

// The H100 traces (tests/fixtures/h100-gemm-trace): cuBLAS's GEMM under torch had no slow first
// launch in Proton's timing (25.9 us, then 25.4-26.0), so nothing is warm-up and the kernel's time
// is the plain sum; K=2464 reads 9.9% slower, the K change.
TEST(TraceWarmup, TheH100GemmTracesAreReadLaunchByLaunch) {
  const auto fixtures = std::filesystem::path(AORTA_FIXTURES_DIR) / "h100-gemm-trace";
  const auto base = aorta::read_hatchet_capture(fixtures / "k2240");
  const auto head = aorta::read_hatchet_capture(fixtures / "k2464");
  ASSERT_EQ(base.kernels.size(), 1u);
  ASSERT_EQ(head.kernels.size(), 1u);
  EXPECT_EQ(base.kernels[0].launches, 20u);
  EXPECT_EQ(head.kernels[0].launches, 20u);
  for (const auto& n : base.notes) EXPECT_EQ(n.find("warm-up"), std::string::npos) << n;
  EXPECT_NEAR(base.kernels[0].total_ns / 20.0, 25.85e3, 0.1e3);
  EXPECT_NEAR(head.kernels[0].total_ns / base.kernels[0].total_ns, 1.099, 0.005);
}

}  // namespace
