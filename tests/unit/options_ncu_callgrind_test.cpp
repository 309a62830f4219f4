#include "collectors/callgrind/callgrind_options.hpp"
#include "collectors/ncu/ncu_options.hpp"

#include "option_test_support.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace {

using aorta::option_error;
using aorta::parse_callgrind_options;
using aorta::parse_ncu_options;
using aorta::testing_support::make_options;
using aorta::testing_support::thrown;
using ::testing::HasSubstr;
using strings = std::vector<std::string>;

std::optional<option_error>
ncu_error(std::initializer_list<std::pair<std::string, std::string>> pairs) {
  return thrown<option_error>([&] { (void)parse_ncu_options(make_options(pairs)); });
}

std::optional<option_error>
callgrind_error(std::initializer_list<std::pair<std::string, std::string>> pairs) {
  return thrown<option_error>([&] { (void)parse_callgrind_options(make_options(pairs)); });
}

TEST(NcuOptions, Defaults) {
  const auto parsed = parse_ncu_options({});
  EXPECT_EQ(parsed.metrics, strings{"gpu__time_duration.sum"});
  EXPECT_EQ(parsed.clock_control, "none");
  EXPECT_FALSE(parsed.kernel_name);
  EXPECT_FALSE(parsed.launch_skip);
  EXPECT_FALSE(parsed.launch_count);
}

TEST(NcuOptions, KernelTimeMetricIsAlwaysFirstAndOnce) {
  EXPECT_EQ(
      parse_ncu_options(make_options({{"metrics", "sm__cycles_elapsed.avg, dram__bytes.sum"}}))
          .metrics,
      (strings{"gpu__time_duration.sum", "sm__cycles_elapsed.avg", "dram__bytes.sum"}));
  EXPECT_EQ(
      parse_ncu_options(
          make_options({{"metrics", "dram__bytes.sum gpu__time_duration.sum dram__bytes.sum"}}))
          .metrics,
      (strings{"gpu__time_duration.sum", "dram__bytes.sum"}));
  const auto e = ncu_error({{"metrics", " , "}});
  ASSERT_TRUE(e);
  EXPECT_EQ(e->key(), "metrics");
  EXPECT_THAT(e->what(), HasSubstr("names no metric"));
}

TEST(NcuOptions, ClockControl) {
  EXPECT_EQ(parse_ncu_options(make_options({{"clock_control", "base"}})).clock_control, "base");
  EXPECT_EQ(parse_ncu_options(make_options({{"clock_control", " NONE"}})).clock_control, "none");
  const auto e = ncu_error({{"clock_control", "boost"}});
  ASSERT_TRUE(e);
  EXPECT_EQ(e->key(), "clock_control");
  EXPECT_THAT(e->what(), HasSubstr("'boost' is not an ncu clock control; allowed: none, base."));
}

TEST(NcuOptions, KernelNameIsAVerbatimEcmaScriptRegex) {
  EXPECT_EQ(parse_ncu_options(make_options({{"kernel_name", "^sgemm_(tiled|naive)"}})).kernel_name,
            "^sgemm_(tiled|naive)");
  const auto blank = ncu_error({{"kernel_name", " "}});
  ASSERT_TRUE(blank);
  EXPECT_EQ(blank->key(), "kernel_name");
  EXPECT_THAT(blank->what(), HasSubstr("is blank"));
  const auto bad = ncu_error({{"kernel_name", "gemm(float"}});
  ASSERT_TRUE(bad);
  EXPECT_EQ(bad->key(), "kernel_name");
  EXPECT_THAT(bad->what(), HasSubstr("'gemm(float' is not a regex aorta can check (missing )"));
}

// Issue 10: std::regex, which checks the pattern, overflowed an int on a long backreference
// (undefined behaviour) and recursed once per nested group.
TEST(NcuOptions, KernelNameIsBoundedBeforeStdRegexSeesIt) {
  const auto overflow = ncu_error({{"kernel_name", "\\88888888888888888888"}});
  ASSERT_TRUE(overflow);
  EXPECT_THAT(overflow->what(), HasSubstr("is not a regex aorta can check"));
  const auto huge = ncu_error({{"kernel_name", "(k{1000}){1000}"}});
  ASSERT_TRUE(huge);
  EXPECT_THAT(huge->what(), HasSubstr("is not a regex aorta can check"));
  const auto nested = ncu_error({{"kernel_name", std::string(100'000, '(')}});
  ASSERT_TRUE(nested);
  EXPECT_THAT(nested->what(), HasSubstr("longer than 4096 (max_ncu_kernel_regex_bytes)"));
  EXPECT_TRUE(parse_ncu_options(make_options({{"kernel_name", "k{12}_v2"}})).kernel_name);
}

TEST(NcuOptions, LaunchSkipAndCountAreDigits) {
  const auto parsed =
      parse_ncu_options(make_options({{"launch_skip", " 0 "}, {"launch_count", "12"}}));
  EXPECT_EQ(parsed.launch_skip, "0");
  EXPECT_EQ(parsed.launch_count, "12");
  for (const std::string bad : {"-1", "1.5", "", "ten", "3 4"}) {
    const auto e = ncu_error({{"launch_skip", bad}});
    ASSERT_TRUE(e) << bad;
    EXPECT_EQ(e->key(), "launch_skip");
    EXPECT_THAT(e->what(), HasSubstr("expected a whole number >= 0"));
  }
  const auto zero = ncu_error({{"launch_count", "00"}});
  ASSERT_TRUE(zero);
  EXPECT_EQ(zero->key(), "launch_count");
  EXPECT_THAT(zero->what(), HasSubstr("expected a whole number >= 1, got '00'"));
}

TEST(NcuOptions, UnknownKey) {
  const auto e = ncu_error({{"metric", "x"}});
  ASSERT_TRUE(e);
  EXPECT_THAT(e->what(), HasSubstr("ncu: unknown option(s) [metric]; valid: [metrics, "
                                   "clock_control, kernel_name, launch_skip, launch_count]. Did "
                                   "you mean 'metrics'?"));
}

TEST(CallgrindOptions, Defaults) {
  const auto parsed = parse_callgrind_options({});
  EXPECT_FALSE(parsed.toggle_collect);
  EXPECT_FALSE(parsed.cache_sim);
  EXPECT_FALSE(parsed.trace_children);
}

TEST(CallgrindOptions, ValuesAndBooleanSpellings) {
  const auto parsed = parse_callgrind_options(
      make_options({{"toggle_collect", "solve*"}, {"cache_sim", "Yes"}, {"trace_children", "1"}}));
  EXPECT_EQ(parsed.toggle_collect, "solve*");
  EXPECT_TRUE(parsed.cache_sim);
  EXPECT_TRUE(parsed.trace_children);
  EXPECT_FALSE(parse_callgrind_options(make_options({{"cache_sim", "off"}})).cache_sim);
}

TEST(CallgrindOptions, Refusals) {
  const auto blank = callgrind_error({{"toggle_collect", "  "}});
  ASSERT_TRUE(blank);
  EXPECT_EQ(blank->key(), "toggle_collect");
  EXPECT_THAT(blank->what(), HasSubstr("is blank"));
  const auto flag = callgrind_error({{"cache_sim", "sometimes"}});
  ASSERT_TRUE(flag);
  EXPECT_EQ(flag->key(), "cache_sim");
  EXPECT_THAT(flag->what(), HasSubstr("expected a boolean, got 'sometimes'"));
  const auto unknown = callgrind_error({{"cachesim", "true"}});
  ASSERT_TRUE(unknown);
  EXPECT_THAT(unknown->what(), HasSubstr("callgrind: unknown option(s) [cachesim]; valid: "
                                         "[toggle_collect, cache_sim, trace_children]. Did you "
                                         "mean 'cache_sim'?"));
}

}  // namespace
