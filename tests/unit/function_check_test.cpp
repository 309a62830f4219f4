// calls(REGEX) and self_ir(REGEX): the callgrind check forms beside ir() (issue 23, item 8).
// The captures are built by hand in the shape captures/callgrind_reader.hpp produces.
#include "aorta/check.hpp"
#include "aorta/error.hpp"
#include "baseline/measured_series.hpp"

#include <gtest/gtest.h>

#include <string>

namespace aorta {
namespace {

function_cost function(std::string name, std::uint64_t self, std::uint64_t inclusive,
                       std::uint64_t calls) {
  function_cost f;
  f.name = std::move(name);
  f.self_ir = self;
  f.inclusive_ir = inclusive;
  f.calls = calls;
  return f;
}

capture function_capture() {
  capture source;
  source.collector = "callgrind";
  source.functions = {function("main", 10, 1000, 0),
                      function("parse_row(char const*)", 600, 900, 1000),
                      function("parse_rows()", 200, 200, 1), function("flush()", 90, 90, 3)};
  return source;
}

check_result run(std::string_view text) {
  return evaluate_check(check_expression::parse(text), {function_capture()}, {});
}

TEST(FunctionChecks, CallsCountsTheCallsOfOneFunction) {
  EXPECT_TRUE(run("calls(^parse_row\\() == 1000").passed);
  EXPECT_TRUE(run("calls(flush) == 3").passed);
  const check_result failed = run("calls(flush) <= 2");
  EXPECT_FALSE(failed.passed);
  EXPECT_EQ(failed.actual, "3");
  EXPECT_NE(failed.message.find("parse_row(char const*)  Ir 900  self 600  calls 1000"),
            std::string::npos)
      << failed.message;
}

TEST(FunctionChecks, SelfIrIsTheExclusiveCost) {
  EXPECT_TRUE(run("self_ir(^parse_row\\() == 600").passed);
  EXPECT_TRUE(run("ir(^parse_row\\() == 900").passed);
  EXPECT_TRUE(run("self_ir(^parse_row\\() / self_ir(flush) > 6").passed);
  EXPECT_FALSE(run("self_ir(flush) > 90").passed);
}

// A plain name that matches several functions is ambiguous, as for ir(); written as a regex it
// sums them, which for exclusive costs and call counts counts nothing twice.
TEST(FunctionChecks, APlainNameMatchingSeveralNamesThemARegexSumsThem) {
  const check_result ambiguous = run("calls(parse_row) > 0");
  EXPECT_FALSE(ambiguous.passed);
  EXPECT_EQ(ambiguous.actual, "unknown");
  EXPECT_NE(ambiguous.message.find("calls(parse_row) matches 2 functions: parse_row(char const*), "
                                   "parse_rows(); name one (anchor it) or write a regex to sum "
                                   "them, e.g. calls(^parse_row\\(char const\\*\\)$)"),
            std::string::npos)
      << ambiguous.message;
  const check_result summed = run("calls(^parse_row) == 1001");
  EXPECT_TRUE(summed.passed) << summed.message;
  EXPECT_EQ(summed.actual, "1001 (sum over 2 functions)");
  EXPECT_TRUE(run("self_ir(^parse_row) == 800").passed);
  // ir() never sums: a caller's inclusive Ir already holds its callees'.
  EXPECT_FALSE(run("ir(^parse_row) > 0").passed);
}

// A misspelt name must not pass `calls(x) < 10` as 0.
TEST(FunctionChecks, NoMatchFailsNamingTheClosestFunctions) {
  for (const char* text : {"calls(parse_rwo) < 10", "self_ir(^parse_rwo$) < 10"}) {
    const check_result result = run(text);
    EXPECT_FALSE(result.passed) << text;
    EXPECT_EQ(result.actual, "unknown");
    EXPECT_NE(result.message.find("no function of the callgrind capture matches '"),
              std::string::npos)
        << result.message;
    EXPECT_NE(result.message.find("closest: parse_row(char const*), parse_rows()"),
              std::string::npos)
        << result.message;
  }
  // ir() follows the same rule since issue 39 (it read 0, so `ir(typo) < N` passed); written
  // `ir(x)?`, absence reads 0.
  EXPECT_FALSE(run("ir(^absent$) == 0").passed);
  EXPECT_TRUE(run("ir(^absent$)? == 0").passed);
}

TEST(FunctionChecks, NoCallgrindCaptureIsAFailure) {
  capture kernels;
  kernels.collector = "proton";
  kernels.kernels = {{"k", 1, 1.0}};
  const check_result result =
      evaluate_check(check_expression::parse("calls(main) == 1"), {kernels}, {});
  EXPECT_FALSE(result.passed);
  EXPECT_NE(result.message.find("no capture has functions (captures: proton)"), std::string::npos);
}

TEST(FunctionChecks, GrammarKnowsBothFormsAndRefusesGatingCalls) {
  const check_expression calls = check_expression::parse("calls(^main$) == 1");
  EXPECT_EQ(calls.quantity(), check_quantity::calls);
  EXPECT_EQ(to_string(calls.quantity()), "calls");
  const check_expression self = check_expression::parse("self_ir(main) <= baseline + 5%");
  EXPECT_EQ(self.quantity(), check_quantity::self_ir);
  EXPECT_TRUE(self.baseline().has_value());
  EXPECT_EQ(check_expression::parse("max_over_ranks(calls(main)) < 3").quantity(),
            check_quantity::calls);
  try {
    (void)check_expression::parse("calls(main) <= baseline");
    FAIL() << "calls() against a baseline parsed";
  } catch (const usage_error& error) {
    EXPECT_NE(std::string(error.what()).find("calls() cannot be gated yet"), std::string::npos)
        << error.what();
  }
  try {
    (void)check_expression::parse("call(main) == 1");
    FAIL() << "an unknown form parsed";
  } catch (const usage_error& error) {
    EXPECT_NE(std::string(error.what()).find("self_ir(, calls("), std::string::npos)
        << error.what();
  }
  EXPECT_THROW((void)check_expression::parse("calls(main) / ir(main) > 1"), usage_error);
}

// The regression gate reads self_ir() from the callgrind_self_ir.* metrics a trial recorded; a
// function outside them is not measured, never 0.
TEST(FunctionChecks, TheGateReadsSelfIrFromTheRecordedMetrics) {
  detail::trial_snapshot trial;
  trial.metrics["callgrind_self_ir.parse_row(char const*)"] = 600;
  trial.metrics["callgrind_ir.parse_row(char const*)"] = 900;
  std::string why;
  const auto self =
      detail::measure(check_expression::parse("self_ir(^parse_row) <= baseline"), trial, why);
  ASSERT_TRUE(self.has_value()) << why;
  EXPECT_EQ(*self, 600.0);
  EXPECT_FALSE(
      detail::measure(check_expression::parse("self_ir(^absent) <= baseline"), trial, why));
  EXPECT_NE(why.find("matches none of the functions a trial records (callgrind_self_ir.*)"),
            std::string::npos)
      << why;
}

}  // namespace
}  // namespace aorta
