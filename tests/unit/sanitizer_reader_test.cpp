// compute-sanitizer text reports into findings, metrics and checks: the H200 captures of
// examples/profiling/sanitizer/cuda-oob (tests/fixtures/sanitizer/README.md), hostile files
// derived from them, and small inline reports for the rules the captures do not exercise.
#include "aorta/check.hpp"
#include "aorta/error.hpp"
#include "aorta/metrics.hpp"
#include "captures/sanitizer_reader.hpp"
#include "unit/wrap_test_support.hpp"

#include <gtest/gtest.h>

#include <fstream>

namespace aorta {
namespace {

namespace fs = std::filesystem;

const fs::path h200 = fs::path(AORTA_FIXTURES_DIR) / "sanitizer" / "h200";
const fs::path hostile = fs::path(AORTA_FIXTURES_DIR) / "sanitizer" / "hostile";

// The capture_error's text, or "" when the file was read.
std::string refusal(const fs::path& file) {
  try {
    (void)read_sanitizer_capture(file);
  } catch (const capture_error& e) {
    return e.what();
  }
  return "";
}

std::string refusal_of_text(const std::string& text) {
  try {
    (void)parse_sanitizer_log(text, "inline.log");
  } catch (const capture_error& e) {
    return e.what();
  }
  return "";
}

TEST(sanitizer_reader, a_clean_report_of_every_tool_is_zero_errors_and_not_an_empty_capture) {
  for (const char* name :
       {"memcheck-clean.log", "racecheck-clean.log", "initcheck-clean.log", "synccheck-clean.log"}) {
    const capture c = read_sanitizer_capture(h200 / name);
    EXPECT_EQ(c.collector, "sanitizer");
    ASSERT_TRUE(c.reported_errors.has_value()) << name;
    EXPECT_EQ(*c.reported_errors, 0U) << name;
    EXPECT_TRUE(c.findings.empty()) << name;
    EXPECT_FALSE(c.empty()) << name;
    const metric_set metrics = compute_metrics(c);
    EXPECT_EQ(std::get<std::int64_t>(metrics.values.at("sanitizer_error_count")), 0) << name;
  }
}

TEST(sanitizer_reader, the_planted_out_of_bounds_write_names_kernel_access_and_thread) {
  const capture c = read_sanitizer_capture(h200 / "memcheck-oob-padding.log");
  ASSERT_EQ(c.reported_errors, 3U);
  ASSERT_EQ(c.findings.size(), 3U);
  const finding& write = c.findings[0];
  EXPECT_EQ(write.severity, "error");
  EXPECT_EQ(write.kind, "Invalid __global__ write of size 4 bytes");
  EXPECT_EQ(write.kernel, "<unnamed>::fill_kernel(float *, int, int)");
  EXPECT_EQ(write.location, "oob.cu:36");
  EXPECT_EQ(write.count, 1U);
  EXPECT_NE(write.detail.find("by thread (255,0,0) in block (15,0,0)"), std::string::npos);
  EXPECT_NE(write.detail.find("Access to 0x7f7906804000 is out of bounds"), std::string::npos);
  EXPECT_EQ(write.detail.find("Host Frame"), std::string::npos) << "backtraces stay in the log";
  // The stopped kernel makes the payload's next two CUDA calls fail; the tool counts them too.
  EXPECT_EQ(c.findings[1].kind, "CUDA API error cudaErrorLaunchFailure");
  EXPECT_EQ(c.findings[1].location, "cudaLaunchKernel");
  EXPECT_EQ(c.findings[2].location, "cudaGetLastError");
  EXPECT_TRUE(c.findings[1].kernel.empty());

  const metric_set metrics = compute_metrics(c);
  EXPECT_EQ(std::get<std::int64_t>(metrics.values.at("sanitizer_error_count")), 3);
  EXPECT_EQ(std::get<std::int64_t>(
                metrics.values.at("sanitizer_errors.invalid_global_write_of_size_4_bytes")),
            1);
  EXPECT_EQ(std::get<std::int64_t>(
                metrics.values.at("sanitizer_errors.cuda_api_error_cudaerrorlaunchfailure")),
            2);
}

TEST(sanitizer_reader, without_padding_memcheck_misses_the_overrun_into_the_next_allocation) {
  // Measured on the H200: the write lands at the start of the payload's second buffer, which is
  // valid memory to memcheck; --padding 32 is what catches it (the example's recipe sets it).
  const capture c = read_sanitizer_capture(h200 / "memcheck-oob-no-padding.log");
  EXPECT_EQ(c.reported_errors, 0U);
  EXPECT_TRUE(c.findings.empty());
}

TEST(sanitizer_reader, a_race_names_both_accesses_and_its_hazards) {
  const capture c = read_sanitizer_capture(h200 / "racecheck-race.log");
  ASSERT_EQ(c.reported_errors, 1U);
  ASSERT_EQ(c.findings.size(), 1U);
  EXPECT_EQ(c.findings[0].kind, "Race between Write access and Read access");
  EXPECT_EQ(c.findings[0].kernel, "<unnamed>::shift_kernel(const float *, float *, int, int)");
  EXPECT_EQ(c.findings[0].location, "oob.cu:42");
  EXPECT_NE(c.findings[0].detail.find("oob.cu:45 [16384 hazards]"), std::string::npos);
}

TEST(sanitizer_reader, a_leak_is_one_error_with_its_size) {
  const capture c = read_sanitizer_capture(h200 / "memcheck-leak.log");
  ASSERT_EQ(c.reported_errors, 1U);
  ASSERT_EQ(c.findings.size(), 1U);
  EXPECT_EQ(c.findings[0].kind, "Leak");
  EXPECT_NE(c.findings[0].detail.find("Leaked 16,384 bytes"), std::string::npos);
  EXPECT_EQ(compute_metrics(c).values.count("sanitizer_errors.leak"), 1U);
}

TEST(sanitizer_reader, a_directory_sums_its_reports_and_without_one_is_an_empty_capture) {
  const test::scratch_dir dir;
  fs::copy_file(h200 / "memcheck-oob-padding.log", dir.path() / "sanitizer.log");
  fs::create_directories(dir.path() / "child");
  fs::copy_file(h200 / "memcheck-leak.log", dir.path() / "child" / "sanitizer.log");
  const capture both = read_sanitizer_capture(dir.path());
  EXPECT_EQ(both.reported_errors, 4U);
  EXPECT_EQ(both.files.size(), 2U);

  const test::scratch_dir none;
  const capture empty = read_sanitizer_capture(none.path());
  EXPECT_TRUE(empty.empty());
  EXPECT_FALSE(empty.reported_errors.has_value());
  ASSERT_FALSE(empty.notes.empty());
  EXPECT_NE(empty.notes.front().find("no compute-sanitizer report"), std::string::npos);
}

TEST(sanitizer_reader, truncated_foreign_and_unknown_reports_are_errors_naming_the_file) {
  const std::string truncated = refusal(hostile / "truncated.log");
  EXPECT_NE(truncated.find("truncated.log"), std::string::npos) << truncated;
  EXPECT_NE(truncated.find("ends without compute-sanitizer's summary line"), std::string::npos);
  EXPECT_NE(truncated.find("Fix: rerun"), std::string::npos);
  EXPECT_NE(refusal(hostile / "empty.log").find("empty.log: compute-sanitizer report is empty"),
            std::string::npos);
  const std::string older = refusal(hostile / "cuda-memcheck-banner.log");
  EXPECT_NE(older.find("not a compute-sanitizer text report: it begins with '========= "
                       "CUDA-MEMCHECK'"),
            std::string::npos)
      << older;
  const std::string summary = refusal(hostile / "unknown-summary.log");
  EXPECT_NE(summary.find("summary line 'ERROR SUMMARY: errors=3' is not in a format this reader "
                         "knows"),
            std::string::npos)
      << summary;
  const std::string xml = refusal(h200 / "memcheck-leak.xml");
  EXPECT_NE(xml.find("begins with '<?xml"), std::string::npos) << xml;
  EXPECT_NE(xml.find("does not read --xml --save reports"), std::string::npos);
}

TEST(sanitizer_reader, identical_reports_merge_and_unprinted_errors_still_count) {
  const std::string text =
      "========= COMPUTE-SANITIZER\r\n"
      "payload output is not the tool's\n"
      "========= Invalid __shared__ read of size 4 bytes\n"
      "=========     at k()+0x10 in a.cu:3\n"
      "=========     by thread (1,0,0) in block (0,0,0)\n"
      "========= \n"
      "========= Invalid __shared__ read of size 4 bytes\n"
      "=========     at k()+0x10 in a.cu:3\n"
      "=========     by thread (2,0,0) in block (0,0,0)\n"
      "========= Warning: Race reported between Read access at k()+0x20 in a.cu:4\n"
      "=========     and Write access at k()+0x30 in a.cu:5 [2 hazards]\n"
      "========= ERROR SUMMARY: 1,002 errors\n"
      "========= ERROR SUMMARY: 1000 errors were not printed\n";
  const sanitizer_report report = parse_sanitizer_log(text, "inline.log");
  EXPECT_EQ(report.errors, 1002U);
  ASSERT_EQ(report.findings.size(), 2U);
  EXPECT_EQ(report.findings[0].count, 2U);
  EXPECT_EQ(report.findings[0].kernel, "k()");
  EXPECT_NE(report.findings[0].detail.find("thread (1,0,0)"), std::string::npos);
  EXPECT_EQ(report.findings[1].severity, "warning");
  EXPECT_EQ(report.findings[1].kind, "Race between Read access and Write access");
  ASSERT_EQ(report.notes.size(), 1U);
  EXPECT_NE(report.notes[0].find("1000 errors were counted but not printed"), std::string::npos);
}

TEST(sanitizer_reader, a_listed_error_the_summary_does_not_count_still_fails_the_gate) {
  const test::scratch_dir dir;
  const auto file = dir.write("sanitizer.log",
                              "========= COMPUTE-SANITIZER\n"
                              "========= Error: Target application terminated before first "
                              "instrumented API call\n"
                              "========= ERROR SUMMARY: 0 errors\n",
                              0644);
  const capture c = read_sanitizer_capture(file);
  EXPECT_EQ(c.reported_errors, 1U);
  ASSERT_EQ(c.findings.size(), 1U);
  EXPECT_EQ(c.findings[0].kind, "Target application terminated before first instrumented API call");
  ASSERT_FALSE(c.notes.empty());
  EXPECT_NE(c.notes.back().find("lists 1 error(s) and its summary counts 0"), std::string::npos);
}

TEST(sanitizer_reader, a_report_after_the_last_summary_or_output_before_the_banner_is_refused) {
  EXPECT_NE(refusal_of_text("========= COMPUTE-SANITIZER\n========= ERROR SUMMARY: 0 errors\n"
                            "========= Invalid __global__ read of size 4 bytes\n")
                .find("after its last summary line"),
            std::string::npos);
  EXPECT_NE(refusal_of_text("hello\n========= COMPUTE-SANITIZER\n========= ERROR SUMMARY: 0 "
                            "errors\n")
                .find("begins with 'hello'"),
            std::string::npos);
  EXPECT_NE(refusal_of_text("========= COMPUTE-SANITIZER\n========= RACECHECK SUMMARY: 1 "
                            "hazard displayed\n")
                .find("RACECHECK SUMMARY: 1 hazard displayed"),
            std::string::npos);
  EXPECT_NE(refusal_of_text("========= COMPUTE-SANITIZER\n========= ERROR SUMMARY: "
                            "99999999999999999999999 errors\n")
                .find("not in a format this reader knows"),
            std::string::npos);
}

TEST(sanitizer_checks, count_errors_fails_naming_the_kernel_and_the_access) {
  const std::vector<capture> captures{read_sanitizer_capture(h200 / "memcheck-oob-padding.log")};
  const metric_set metrics = compute_metrics(captures.front());
  const check_result by_kernel =
      evaluate_check(check_expression::parse("count_errors(fill_kernel) == 0"), captures, metrics);
  EXPECT_FALSE(by_kernel.passed);
  EXPECT_EQ(by_kernel.value, 1.0);
  EXPECT_NE(by_kernel.message.find("Invalid __global__ write of size 4 bytes in "
                                   "<unnamed>::fill_kernel(float *, int, int) at oob.cu:36"),
            std::string::npos)
      << by_kernel.message;
  EXPECT_NE(by_kernel.message.find("by thread (255,0,0) in block (15,0,0)"), std::string::npos);
  const check_result by_kind = evaluate_check(
      check_expression::parse("count_errors(cudaErrorLaunchFailure) == 2"), captures, metrics);
  EXPECT_TRUE(by_kind.passed) << by_kind.message;
  const check_result total =
      evaluate_check(check_expression::parse("sanitizer_error_count == 0"), captures, metrics);
  EXPECT_FALSE(total.passed);
  EXPECT_NE(total.message.find("fill_kernel"), std::string::npos) << total.message;

  const std::vector<capture> clean{read_sanitizer_capture(h200 / "memcheck-clean.log")};
  EXPECT_TRUE(evaluate_check(check_expression::parse("count_errors(.) == 0"), clean,
                             compute_metrics(clean.front()))
                  .passed);
}

TEST(sanitizer_checks, count_errors_without_a_report_is_unmeasured_not_zero) {
  capture kernels_only;
  kernels_only.collector = "ncu";
  kernels_only.kernels.push_back({"k", 1, 1.0});
  const check_result result = evaluate_check(check_expression::parse("count_errors(k) == 0"),
                                             {kernels_only}, compute_metrics(kernels_only));
  EXPECT_FALSE(result.passed);
  EXPECT_NE(result.message.find("no capture has a checker's report"), std::string::npos)
      << result.message;
  EXPECT_THROW((void)check_expression::parse("count_errors(k) <= baseline"), usage_error);
}

// count_warnings(): the quantity added by following docs/architecture.md, "How to add a quantity"
// (one enumerator, one form, one table row). It counts the warnings a checker reported, as
// count_errors() counts the errors, and neither counts the other's.
TEST(sanitizer_checks, count_warnings_counts_only_the_warnings_and_never_against_a_baseline) {
  capture report;
  report.collector = "sanitizer";
  report.reported_errors = 2;
  report.findings.push_back(
      {"error", "Invalid __global__ write of size 4 bytes", "fill_kernel", "oob.cu:36", "", 2});
  report.findings.push_back(
      {"warning", "Race between Read access and Write access", "shift_kernel", "a.cu:4", "", 3});
  const std::vector<capture> captures{report};
  const metric_set metrics = compute_metrics(report);
  const auto value_of = [&](const char* text) {
    const check_result result = evaluate_check(check_expression::parse(text), captures, metrics);
    return std::pair{result.value, result.message};
  };
  EXPECT_EQ(value_of("count_warnings(.) == 0").first, 3.0);
  EXPECT_EQ(value_of("count_warnings(shift_kernel) == 0").first, 3.0);
  EXPECT_EQ(value_of("count_errors(.) == 0").first, 2.0);
  const auto [none, why] = value_of("count_warnings(fill_kernel) == 0");
  EXPECT_EQ(none, 0.0);
  EXPECT_NE(why.find("no reported warning matches 'fill_kernel'"), std::string::npos) << why;

  capture kernels_only;
  kernels_only.collector = "ncu";
  kernels_only.kernels.push_back({"k", 1, 1.0});
  const check_result unmeasured = evaluate_check(check_expression::parse("count_warnings(k) == 0"),
                                                 {kernels_only}, compute_metrics(kernels_only));
  EXPECT_FALSE(unmeasured.passed);
  EXPECT_FALSE(unmeasured.value.has_value());
  EXPECT_NE(unmeasured.message.find("no capture has a checker's report"), std::string::npos)
      << unmeasured.message;

  try {
    (void)check_expression::parse("count_warnings(k) <= baseline");
    ADD_FAILURE() << "a baseline bound on count_warnings() was accepted";
  } catch (const usage_error& error) {
    EXPECT_NE(std::string(error.what())
                  .find("a number after count_warnings(...): warnings are judged against a count"),
              std::string::npos)
        << error.what();
  }
  EXPECT_THROW((void)check_expression::parse("count_warnings(k)@a / count_warnings(k)@b < 2"),
               usage_error);
}

TEST(sanitizer_checks, ranks_sum_their_findings_and_totals) {
  capture a = read_sanitizer_capture(h200 / "memcheck-leak.log");
  capture b = read_sanitizer_capture(h200 / "memcheck-oob-padding.log");
  a.rank = 0;
  b.rank = 1;
  const capture sum = sum_over_ranks({&a, &b});
  EXPECT_EQ(sum.reported_errors, 4U);
  EXPECT_EQ(sum.findings.size(), 4U);
  capture unread;
  unread.collector = "sanitizer";
  EXPECT_FALSE(sum_over_ranks({&a, &unread}).reported_errors.has_value());
}

}  // namespace
}  // namespace aorta
