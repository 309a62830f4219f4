#include "aorta/check.hpp"
#include "aorta/error.hpp"

#include <fmt/format.h>
#include <gtest/gtest.h>

namespace aorta {
namespace {

capture kernel_capture(std::string collector = "proton") {
  capture source;
  source.collector = std::move(collector);
  source.kernels = {
      {"add_kernel", 20, 2'000'000.0},           {"mul", 40, 1'500'000.0},
      {"add_kernel_v2", 5, 500'000.0},           {"sgemm_tiled(float const*, int)", 10, 300'000.0},
      {"void foo<int, 2>(float)", 3, 200'000.0}, {"foobar_kernel", 4, 100'000.0}};
  return source;
}

capture scope_capture() {
  capture source;
  source.collector = "proton";
  source.scopes = {{"unbalanced_kernel", "cheap", 150.0, 2.0},
                   {"unbalanced_kernel", "expensive", 8250.0, 110.0},
                   {"unbalanced_kernel", "zero", 0.0, 0.0},
                   {"k1", "loop", 10.0, 1.0},
                   {"k2", "loop", 30.0, 3.0}};
  return source;
}

capture function_capture() {
  capture source;
  source.collector = "callgrind";
  source.functions = {{"main", 10, 1000},
                      {"expensive", 600, 900},
                      {"expensive_helper", 300, 300},
                      {"cheap", 90, 90}};
  return source;
}

check_result run(std::string_view text, const std::vector<capture>& captures,
                 const metric_set& metrics = {}) {
  return evaluate_check(check_expression::parse(text), captures, metrics);
}

bool passes(std::string_view text, const std::vector<capture>& captures,
            const metric_set& metrics = {}) {
  return run(text, captures, metrics).passed;
}

// The 1-based column a parse error reports, or 0 when it parsed.
int error_column(std::string_view text) {
  try {
    (void)check_expression::parse(text);
  } catch (const usage_error& failure) {
    const std::string message = failure.what();
    const std::string marker = "at column ";
    const auto at = message.find(marker);
    if (at == std::string::npos) return -1;
    return std::stoi(message.substr(at + marker.size()));
  }
  return 0;
}

std::string parse_error(std::string_view text) {
  try {
    (void)check_expression::parse(text);
  } catch (const usage_error& failure) {
    return failure.what();
  }
  return {};
}

TEST(CheckParse, EveryForm) {
  const auto metric = check_expression::parse("  proton_kernel_count >= 60 ");
  EXPECT_EQ(metric.text(), "proton_kernel_count >= 60");
  EXPECT_EQ(metric.quantity(), check_quantity::metric);
  EXPECT_EQ(metric.argument(), "proton_kernel_count");
  EXPECT_EQ(metric.op(), compare_op::greater_equal);
  EXPECT_EQ(metric.threshold(), 60.0);
  EXPECT_FALSE(metric.is_ratio());

  const auto dotted = check_expression::parse("proton_scope_cycles.k2/loop:x-1>0");
  EXPECT_EQ(dotted.argument(), "proton_scope_cycles.k2/loop:x-1");
  EXPECT_EQ(dotted.op(), compare_op::greater);

  const auto count = check_expression::parse("count( sgemm_tiled )==20");
  EXPECT_EQ(count.quantity(), check_quantity::count);
  EXPECT_EQ(count.argument(), "sgemm_tiled");
  EXPECT_TRUE(count.pattern().has_value());

  const auto time = check_expression::parse("time_ms(^gemm) < 5e-1");
  EXPECT_EQ(time.quantity(), check_quantity::time_ms);
  EXPECT_EQ(time.threshold(), 0.5);
  EXPECT_EQ(time.threshold_text(), "5e-1");

  const auto ratio = check_expression::parse("cycles(expensive) / cycles(k/cheap) > 10");
  EXPECT_EQ(ratio.quantity(), check_quantity::cycles);
  EXPECT_EQ(ratio.argument(), "expensive");
  EXPECT_EQ(ratio.denominator(), "k/cheap");
  EXPECT_FALSE(ratio.pattern().has_value());  // scopes are names, not regexes

  const auto normalized =
      check_expression::parse("normalized_cycles(a)/normalized_cycles(b)<=+1.5");
  EXPECT_EQ(normalized.quantity(), check_quantity::normalized_cycles);
  EXPECT_EQ(normalized.op(), compare_op::less_equal);
  EXPECT_EQ(normalized.threshold(), 1.5);

  const auto ir = check_expression::parse("ir(^expensive$) != -.5");
  EXPECT_EQ(ir.quantity(), check_quantity::ir);
  EXPECT_EQ(ir.op(), compare_op::not_equal);
  EXPECT_EQ(ir.threshold(), -0.5);

  const auto top = check_expression::parse("top_kernel ~ ^void foo<int, 2>\\(float\\)$ ");
  EXPECT_EQ(top.quantity(), check_quantity::top_kernel);
  EXPECT_EQ(top.argument(), "^void foo<int, 2>\\(float\\)$");
}

TEST(CheckParse, BalancedParenthesesEscapesAndBrackets) {
  EXPECT_EQ(check_expression::parse("count(^void foo<int, 2>\\(float\\)$) == 3").argument(),
            "^void foo<int, 2>\\(float\\)$");
  EXPECT_EQ(check_expression::parse("count(foo(bar)) == 4").argument(), "foo(bar)");
  EXPECT_EQ(check_expression::parse("count(a\\)) == 1").argument(), "a\\)");
  EXPECT_EQ(check_expression::parse("count([)(]x) == 1").argument(), "[)(]x");
  EXPECT_EQ(check_expression::parse("count(((a)|b)c) == 1").argument(), "((a)|b)c");
}

TEST(CheckParse, ErrorColumns) {
  EXPECT_EQ(error_column("proton_kernel_count >= lots"), 24);
  EXPECT_EQ(error_column("count(abc == 3"), 6);             // the unclosed '('
  EXPECT_EQ(error_column("proton_kernel_count = 60"), 21);  // '=' alone
  EXPECT_EQ(error_column(""), 1);
  EXPECT_EQ(error_column("   "), 4);
  EXPECT_EQ(error_column("foo(x) > 1"), 1);                 // unknown function
  EXPECT_EQ(error_column("count() == 1"), 7);               // empty argument, at ')'
  EXPECT_EQ(error_column("cycles(a) / count(b) > 1"), 13);  // different denominator function
  EXPECT_EQ(error_column("x > 60x"), 7);                    // plain numbers only
  EXPECT_EQ(error_column("x > 60 %"), 8);
  EXPECT_EQ(error_column("top_kernel == foo"), 12);  // '~' expected
  EXPECT_EQ(error_column("top_kernel ~ "), 14);
  EXPECT_EQ(error_column("1abc > 3"), 1);
  EXPECT_EQ(error_column("x >"), 4);
  EXPECT_EQ(error_column("x"), 2);
  EXPECT_EQ(error_column("x ~ a"), 3);
  EXPECT_EQ(error_column("x > 1e999"), 5);                 // not finite
  EXPECT_EQ(error_column("count(*a) == 1"), 7);            // bad regex, at its first character
  EXPECT_EQ(error_column("time_ms(a) / time_ms(b)"), 24);  // operator missing at the end
}

TEST(CheckParse, ErrorMessageHasCaretExpectationAndExample) {
  EXPECT_EQ(parse_error("proton_kernel_count >= lots"),
            "check expression error at column 24: expected a number\n"
            "  proton_kernel_count >= lots\n"
            "                         ^\n"
            "example: proton_kernel_count >= 60");
  const std::string bad_regex = parse_error("count(*a) == 1");
  EXPECT_NE(bad_regex.find("'*a'"), std::string::npos);
  EXPECT_NE(bad_regex.find("RE2 syntax"), std::string::npos);
  EXPECT_NE(bad_regex.find("example: count(sgemm_tiled) == 20"), std::string::npos);
  EXPECT_THROW((void)check_expression::parse("x = 1"), usage_error);
}

TEST(CheckEvaluate, EveryOperator) {
  metric_set metrics;
  metrics.values["x"] = std::int64_t{60};
  const struct {
    const char* op;
    bool below, equal, above;  // x OP 61, x OP 60, x OP 59
  } table[] = {{"==", false, true, false}, {"!=", true, false, true}, {"<", true, false, false},
               {"<=", true, true, false},  {">", false, false, true}, {">=", false, true, true}};
  for (const auto& row : table) {
    SCOPED_TRACE(row.op);
    EXPECT_EQ(passes(fmt::format("x {} 61", row.op), {}, metrics), row.below);
    EXPECT_EQ(passes(fmt::format("x {} 60", row.op), {}, metrics), row.equal);
    EXPECT_EQ(passes(fmt::format("x {} 59", row.op), {}, metrics), row.above);
  }
}

TEST(CheckEvaluate, CountAndTimeSearchAndAnchor) {
  const std::vector<capture> captures{kernel_capture()};
  EXPECT_TRUE(passes("count(add_kernel) == 25", captures));  // add_kernel + add_kernel_v2
  EXPECT_TRUE(passes("count(^add_kernel$) == 20", captures));
  EXPECT_TRUE(passes("count(sgemm_tiled) == 10", captures));
  EXPECT_TRUE(passes("count(^sgemm_tiled$) == 0", captures));  // no match is a legitimate 0
  EXPECT_TRUE(passes("count(^sgemm_tiled\\(float const\\*, int\\)$) == 10", captures));
  EXPECT_TRUE(passes("count(^void foo<int, 2>\\(float\\)$) == 3", captures));
  EXPECT_TRUE(passes("count(foo(bar)) == 4", captures));
  EXPECT_TRUE(passes("count(.) == 82", captures));
  EXPECT_TRUE(passes("time_ms(add) == 2.5", captures));
  EXPECT_TRUE(passes("time_ms(^mul$) == 1.5", captures));
  EXPECT_TRUE(passes("time_ms(add) / time_ms(mul) > 1.6", captures));
  EXPECT_FALSE(passes("time_ms(add) / time_ms(mul) > 1.7", captures));  // 2.5 / 1.5 = 1.667

  const check_result none = run("count(^nothing$) == 0", captures);
  EXPECT_TRUE(none.passed);
  EXPECT_EQ(none.actual, "0 (no kernel matches '^nothing$')");
}

TEST(CheckEvaluate, UsesTheFirstCaptureWithTheNeededData) {
  capture rocprof = kernel_capture("rocprof");
  rocprof.kernels = {{"add_kernel", 7, 1.0}};
  const std::vector<capture> captures{function_capture(), rocprof, kernel_capture()};
  EXPECT_TRUE(passes("count(^add_kernel$) == 7", captures));
  EXPECT_TRUE(passes("ir(^main$) == 1000", captures));
  const std::vector<capture> reversed{kernel_capture(), rocprof};
  EXPECT_TRUE(passes("count(^add_kernel$) == 20", reversed));
}

TEST(CheckEvaluate, UnknownCountFailsOnlyWhenItMatters) {
  capture source = kernel_capture();
  source.kernels.push_back({"add_mystery", std::nullopt, 1.0});
  const std::vector<capture> captures{source};
  EXPECT_TRUE(passes("count(mul) == 40", captures));
  const check_result result = run("count(add) >= 1", captures);
  EXPECT_FALSE(result.passed);
  EXPECT_EQ(result.actual, "unknown");
  EXPECT_NE(result.message.find("the launch count of add_mystery is unknown"), std::string::npos);
  EXPECT_TRUE(passes("time_ms(add_mystery) == 0.000001", captures));
}

TEST(CheckEvaluate, EmptyCapturesFailWithAReason) {
  const check_result nothing = run("count(x) == 0", {});
  EXPECT_FALSE(nothing.passed);
  EXPECT_NE(nothing.message.find("there is no capture"), std::string::npos);

  capture empty;
  empty.collector = "proton";
  const check_result no_kernels = run("count(x) == 0", {empty});
  EXPECT_FALSE(no_kernels.passed);
  EXPECT_NE(no_kernels.message.find("no capture has kernels (captures: proton)"),
            std::string::npos);
  EXPECT_FALSE(passes("top_kernel ~ x", {empty}));
  EXPECT_FALSE(passes("cycles(a) > 0", {empty}));
  EXPECT_FALSE(passes("ir(a) == 0", {empty}));
}

TEST(CheckEvaluate, TopKernel) {
  const std::vector<capture> captures{kernel_capture()};
  EXPECT_TRUE(passes("top_kernel ~ ^add_kernel$", captures));
  const check_result result = run("top_kernel ~ mul", captures);
  EXPECT_FALSE(result.passed);
  EXPECT_EQ(result.expected, "~ mul");
  EXPECT_EQ(result.actual, "add_kernel");
}

TEST(CheckEvaluate, ScopeCyclesAndRatios) {
  const std::vector<capture> captures{kernel_capture(), scope_capture()};
  EXPECT_TRUE(passes("cycles(cheap) == 150", captures));
  EXPECT_TRUE(passes("cycles(expensive) / cycles(cheap) == 55", captures));
  EXPECT_TRUE(passes("normalized_cycles(expensive) / normalized_cycles(cheap) == 55", captures));
  EXPECT_TRUE(passes("cycles(unbalanced_kernel/expensive) == 8250", captures));
  EXPECT_TRUE(passes("cycles(k2/loop) / cycles(k1/loop) == 3", captures));
  const check_result ratio = run("cycles(expensive) / cycles(cheap) > 60", captures);
  EXPECT_FALSE(ratio.passed);
  EXPECT_EQ(ratio.actual, "55 (8250 / 150)");

  const check_result ambiguous = run("cycles(loop) > 0", captures);
  EXPECT_FALSE(ambiguous.passed);
  EXPECT_NE(ambiguous.message.find("qualify it as kernel/scope, e.g. cycles(k1/loop)"),
            std::string::npos);
  const check_result unknown = run("cycles(missing) > 0", captures);
  EXPECT_FALSE(unknown.passed);
  EXPECT_NE(unknown.message.find("no scope 'missing'"), std::string::npos);
  EXPECT_NE(unknown.message.find("scopes with the most cycles (proton)"), std::string::npos);
}

// The scopes a missing one is compared with are listed by name, each name once however many
// (kernel, scope) entries spell it: "k/s" is scope s of kernel k and scope "k/s" under no kernel.
TEST(CheckEvaluate, AMissingScopeListsEachKnownNameOnceInFirstSeenOrder) {
  capture scopes;
  scopes.collector = "proton";
  scopes.scopes = {{"k", "s", 1.0, 1.0}, {"", "k/s", 1.0, 1.0}, {"a/b", "c", 1.0, 1.0},
                   {"a", "b/c", 1.0, 1.0}};
  for (int i = 0; i < 10; ++i) scopes.scopes.push_back({"k", "x" + std::to_string(i), 1.0, 1.0});
  const check_result unknown = run("cycles(missing) > 0", {scopes});
  EXPECT_FALSE(unknown.passed);
  EXPECT_NE(unknown.message.find("its scopes: k/s, a/b/c, k/x0, k/x1, k/x2, k/x3, k/x4, k/x5, "
                                 "k/x6, k/x7, ... (2 more)"),
            std::string::npos)
      << unknown.message;
}

TEST(CheckEvaluate, ZeroDenominatorFails) {
  const std::vector<capture> captures{kernel_capture(), scope_capture()};
  const check_result scope = run("cycles(cheap) / cycles(zero) > 1", captures);
  EXPECT_FALSE(scope.passed);
  EXPECT_EQ(scope.actual, "undefined (150 / 0)");
  EXPECT_NE(scope.message.find("the denominator cycles(zero) is 0"), std::string::npos);

  const check_result kernel = run("time_ms(add) / time_ms(^absent$) < 1", captures);
  EXPECT_FALSE(kernel.passed);
  EXPECT_NE(kernel.message.find("no kernel matches '^absent$'"), std::string::npos);
  // `!=` would hold for any finite ratio; an undefined ratio still fails.
  EXPECT_FALSE(passes("cycles(cheap) / cycles(zero) != 1", captures));
}

TEST(CheckEvaluate, CallgrindIr) {
  const std::vector<capture> captures{function_capture()};
  EXPECT_TRUE(passes("ir(^expensive$) / ir(^cheap$) == 10", captures));
  EXPECT_TRUE(passes("ir(helper) == 300", captures));
  // No function matching is not measured (issue 39); `?` reads it as 0.
  EXPECT_FALSE(passes("ir(^nothing$) == 0", captures));
  EXPECT_TRUE(passes("ir(^nothing$)? == 0", captures));
  const check_result several = run("ir(expensive) > 0", captures);
  EXPECT_FALSE(several.passed);
  EXPECT_NE(several.message.find(
                "ir(expensive) matches 2 functions: expensive, expensive_helper; anchor it"),
            std::string::npos);
  EXPECT_NE(several.message.find("functions with the most inclusive Ir (callgrind)"),
            std::string::npos);
  EXPECT_NE(several.message.find("main  Ir 1000  self 10"), std::string::npos);
}

TEST(CheckEvaluate, MetricProblemsAreFailuresNotExceptions) {
  metric_set metrics;
  metrics.values["proton_kernel_count"] = std::int64_t{60};
  metrics.values["proton_artifact_dir"] = std::string("/a");
  const check_result missing = run("proton_gpu_time_ms < 5", {}, metrics);
  EXPECT_FALSE(missing.passed);
  EXPECT_EQ(missing.actual, "missing");
  EXPECT_NE(missing.message.find("numeric metrics: proton_kernel_count"), std::string::npos);
  const check_result text = run("proton_artifact_dir > 1", {}, metrics);
  EXPECT_FALSE(text.passed);
  EXPECT_NE(text.message.find("is text ('/a'), not a number"), std::string::npos);
  EXPECT_TRUE(passes("proton_kernel_count >= 60", {}, metrics));
}

TEST(CheckEvaluate, FailedMessageShowsExpectedActualAndFiveHottestKernels) {
  const std::vector<capture> captures{kernel_capture()};
  const check_result result = run("count(add_kernel) == 99", captures);
  EXPECT_FALSE(result.passed);
  EXPECT_EQ(result.expression, "count(add_kernel) == 99");
  EXPECT_EQ(result.expected, "== 99");
  EXPECT_EQ(result.actual, "25");
  EXPECT_EQ(result.message, "check failed: count(add_kernel) == 99\n"
                            "  expected: == 99\n"
                            "  actual:   25\n"
                            "  hottest kernels (proton):\n"
                            "    add_kernel  launches 20  total 2 ms\n"
                            "    mul  launches 40  total 1.5 ms\n"
                            "    add_kernel_v2  launches 5  total 0.5 ms\n"
                            "    sgemm_tiled(float const*, int)  launches 10  total 0.3 ms\n"
                            "    void foo<int, 2>(float)  launches 3  total 0.2 ms\n");
  const check_result passed = run("count(add_kernel) == 25", captures);
  EXPECT_EQ(passed.message, "check passed: count(add_kernel) == 25 (actual: 25)");
}

}  // namespace
}  // namespace aorta
