// samples(KERNEL[, LINE]) and stalls(KERNEL, REASON[, LINE]): the PC-sample check forms (issue 45,
// item 2). The captures are built by hand in the shape captures/hatchet_pc_samples.cpp produces.
#include "aorta/check.hpp"
#include "aorta/error.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <string>

namespace aorta {
namespace {

pc_sample_line line(std::string kernel, std::string location, std::uint64_t samples,
                    std::vector<pc_stall> stalls) {
  pc_sample_line out;
  out.kernel = std::move(kernel);
  out.location = std::move(location);
  out.samples = samples;
  for (const auto& stall : stalls) out.stalled += stall.samples;
  out.stalls = std::move(stalls);
  return out;
}

capture sampled_capture() {
  capture source;
  source.collector = "proton";
  source.pc_samples = {
      line("gelu_kernel", "gelu.py:8", 30, {{"math_pipe_throttle", 20}}),
      line("matmul_kernel", "matmul.py:60", 400, {{"long_scoreboard", 250}, {"wait", 50}}),
      line("matmul_kernel", "matmul.py:63", 300, {{"barrier_wait", 10}, {"wait", 90}}),
      line("matmul_kernel", "matmul.py:630", 300, {{"wait", 5}}),
  };
  return source;
}

check_result run(std::string_view text, const capture& source = sampled_capture()) {
  return evaluate_check(check_expression::parse(text), {source}, {});
}

TEST(PcSampleChecks, SamplesSumAKernelsLines) {
  EXPECT_TRUE(run("samples(matmul_kernel) == 1000").passed);
  EXPECT_TRUE(run("samples(_kernel$) == 1030").passed);
  EXPECT_EQ(run("samples(_kernel$) == 1030").actual, "1030 (sum over 2 kernels)");
  EXPECT_FALSE(run("samples(matmul_kernel) < 1000").passed);
}

// LINE is searched, so `matmul.py:63` also matches `matmul.py:630`; `$` anchors it.
TEST(PcSampleChecks, LineIsARegexSearchedInTheLocation) {
  const check_result searched = run("samples(matmul_kernel, matmul.py:63) == 600");
  EXPECT_TRUE(searched.passed) << searched.message;
  EXPECT_EQ(searched.actual, "600 (sum over 2 lines)");
  EXPECT_TRUE(run("samples(matmul_kernel, matmul\\.py:63$) == 300").passed);
}

TEST(PcSampleChecks, ALineShareIsARatio) {
  const check_result share =
      run("samples(^matmul_kernel$, matmul\\.py:60$) / samples(^matmul_kernel$) > 0.35");
  EXPECT_TRUE(share.passed) << share.message;
  EXPECT_EQ(share.actual, "0.4 (400 / 1000)");
  EXPECT_FALSE(
      run("samples(^matmul_kernel$, matmul\\.py:60$) / samples(^matmul_kernel$) > 0.45").passed);
}

TEST(PcSampleChecks, StallsSumTheReasonsThatMatch) {
  EXPECT_TRUE(run("stalls(matmul_kernel, long_scoreboard) == 250").passed);
  // `wait` is searched, so it also matches barrier_wait; `^wait$` is the one reason.
  EXPECT_TRUE(run("stalls(matmul_kernel, wait) == 155").passed);
  EXPECT_TRUE(run("stalls(matmul_kernel, ^wait$) == 145").passed);
  EXPECT_TRUE(run("stalls(matmul_kernel, ^wait$, matmul\\.py:63$) == 90").passed);
  EXPECT_TRUE(run("stalls(matmul_kernel, long_scoreboard, :60$) / stalls(matmul_kernel, "
                  "long_scoreboard) == 1")
                  .passed);
}

// A reason that stalls some line of the kernel but not the selected one is a measured 0.
TEST(PcSampleChecks, AReasonAbsentFromTheSelectedLineReadsZero) {
  const check_result zero = run("stalls(matmul_kernel, long_scoreboard, :63$) == 0");
  EXPECT_TRUE(zero.passed) << zero.message;
}

TEST(PcSampleChecks, AKernelThatMatchesNothingIsNotMeasured) {
  const check_result missing = run("samples(matmul_kernal) < 10");
  EXPECT_FALSE(missing.passed);
  EXPECT_EQ(missing.actual, "unknown");
  EXPECT_NE(missing.message.find("no kernel with PC samples matches 'matmul_kernal', so "
                                 "samples(matmul_kernal) was not measured; did you mean: "
                                 "matmul_kernel"),
            std::string::npos)
      << missing.message;
  EXPECT_NE(missing.message.find("matmul_kernel matmul.py:60  samples 400  stalled 300  top "
                                 "stall long_scoreboard 250"),
            std::string::npos)
      << missing.message;
  EXPECT_TRUE(run("samples(matmul_kernal)? == 0").passed);
}

TEST(PcSampleChecks, ALineThatMatchesNothingNamesTheKernelsLines) {
  const check_result missing = run("samples(matmul_kernel, matmul\\.py:61$) < 10");
  EXPECT_FALSE(missing.passed);
  EXPECT_NE(missing.message.find("no sampled line of the kernel(s) matching 'matmul_kernel' "
                                 "matches 'matmul\\.py:61$'"),
            std::string::npos)
      << missing.message;
  EXPECT_NE(missing.message.find("did you mean: matmul.py:60, matmul.py:63"), std::string::npos)
      << missing.message;
  // gelu.py:8 belongs to another kernel: it is no suggestion for this one.
  EXPECT_EQ(missing.message.find("did you mean: gelu.py:8"), std::string::npos);
  EXPECT_TRUE(run("samples(matmul_kernel, matmul\\.py:61$)? == 0").passed);
}

TEST(PcSampleChecks, AReasonThatMatchesNothingNamesTheReasonsPresent) {
  const check_result missing = run("stalls(matmul_kernel, long_scorebord) < 10");
  EXPECT_FALSE(missing.passed);
  EXPECT_NE(missing.message.find("did you mean: long_scoreboard"), std::string::npos)
      << missing.message;
  EXPECT_TRUE(run("stalls(matmul_kernel, not_selected)? == 0").passed);
}

// `?` covers a selector that matches nothing, never a run that took no samples.
TEST(PcSampleChecks, ACaptureWithoutSamplesIsNeverAPass) {
  capture unsampled;
  unsampled.collector = "proton";
  unsampled.kernels = {kernel_stat{shared_name("matmul_kernel"), 1, 100.0}};
  for (const std::string_view text : {"samples(matmul_kernel) < 10", "samples(matmul_kernel)? < 10",
                                      "stalls(matmul_kernel, wait)? == 0"}) {
    const check_result result = run(text, unsampled);
    EXPECT_FALSE(result.passed) << text;
    EXPECT_NE(result.message.find("no capture has PC samples (captures: proton)"),
              std::string::npos)
        << result.message;
  }
}

// The readers' one rule (captures/checked_sum.hpp): a count or a sum past max_count (2^63-1, the
// largest a metric holds) is not measured, never wrapped.
TEST(PcSampleChecks, ASumPastMaxCountIsRefused) {
  capture huge;
  huge.collector = "proton";
  const std::uint64_t most = static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());
  huge.pc_samples = {line("k", "a.py:1", most, {}), line("k", "a.py:2", 1, {}),
                     line("k", "a.py:3", most + 1, {})};
  for (const std::string_view text : {"samples(k) > 0", "samples(k, :[13]$) > 0"}) {
    const check_result overflowed = run(text, huge);
    EXPECT_FALSE(overflowed.passed) << text;
    EXPECT_EQ(overflowed.actual, "unknown") << text;
    EXPECT_NE(overflowed.message.find("PC samples: "), std::string::npos) << overflowed.message;
    EXPECT_NE(overflowed.message.find("max_count"), std::string::npos) << overflowed.message;
  }
  EXPECT_TRUE(run("samples(k, :1$) > 9e18", huge).passed);
  EXPECT_FALSE(run("samples(k, :3$) > 0", huge).passed);
}

// stalls() over samples() is a stalled share, the one ratio of two different functions.
TEST(PcSampleChecks, AStallShareMixesTheTwoForms) {
  const check_result share = run("stalls(^matmul_kernel$, long_scoreboard) / "
                                 "samples(^matmul_kernel$) > 0.24");
  EXPECT_TRUE(share.passed) << share.message;
  EXPECT_EQ(share.actual, "0.25 (250 / 1000)");
  EXPECT_FALSE(run("stalls(^matmul_kernel$, long_scoreboard) / samples(^matmul_kernel$) > 0.25")
                   .passed);
  const check_result inverse = run("samples(^matmul_kernel$, :60$) / "
                                   "stalls(^matmul_kernel$, long_scoreboard) == 1.6");
  EXPECT_TRUE(inverse.passed) << inverse.message;
  const check_result none = run("stalls(matmul_kernel, wait) / samples(gelu_kernel, :9$) < 1");
  EXPECT_FALSE(none.passed);
  EXPECT_NE(none.message.find("denominator: no sampled line"), std::string::npos) << none.message;
}

TEST(PcSampleChecks, ArgumentsAreCheckedWhenParsed) {
  EXPECT_THROW((void)check_expression::parse("samples(k, a, b) > 0"), usage_error);
  EXPECT_THROW((void)check_expression::parse("stalls(k) > 0"), usage_error);
  EXPECT_THROW((void)check_expression::parse("stalls(k, , a) > 0"), usage_error);
  try {
    (void)check_expression::parse("samples(k, a(?=b)) > 0");
    ADD_FAILURE() << "a bad LINE regex parsed";
  } catch (const usage_error& error) {
    EXPECT_NE(std::string(error.what()).find("a valid regex (RE2 syntax), but 'a(?=b)' is not"),
              std::string::npos)
        << error.what();
  }
  EXPECT_THROW((void)check_expression::parse("samples(k) <= baseline"), usage_error);
  EXPECT_THROW((void)check_expression::parse("samples(k)@a / samples(k)@b < 1"), usage_error);
  EXPECT_THROW((void)check_expression::parse("samples(k) / time_ms(k) < 1"), usage_error);
  EXPECT_THROW((void)check_expression::parse("time_ms(k) / samples(k) < 1"), usage_error);
  EXPECT_THROW((void)check_expression::parse("samples(k) / stalls(k) < 1"), usage_error);
  // A comma inside {} or [] or escaped belongs to the regex.
  EXPECT_TRUE(run("samples(matmul_kernel, py:60{1,2}$) == 400").passed);
  EXPECT_TRUE(run("samples(matmul_kernel, [,:]60$) == 400").passed);
  EXPECT_TRUE(run("stalls(matmul_kernel, long_scoreboard\\,?, :60$) == 250").passed);
}

}  // namespace
}  // namespace aorta
