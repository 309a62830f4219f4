// ncu counters (collect.ncu.metrics) in the capture: per-kernel sums over launches, the hostile
// values that must never become a silent 0 or a partial sum, ncu's own errors in its log, the
// ncu(METRIC, REGEX) check form and its refusal at load when the recipe does not collect it.
// The hand-made rows follow the layout of the real H200 details page in
// tests/fixtures/h200/ncu_vecadd/ncu.csv (ncu 2025.3.1, --csv --page details --print-units base).
#include "aorta/check.hpp"
#include "aorta/collector.hpp"
#include "aorta/error.hpp"
#include "aorta/metrics.hpp"
#include "aorta/recipe.hpp"
#include "captures/ncu_counters.hpp"
#include "captures/ncu_reader.hpp"
#include "checks/ncu_checks.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>

namespace {

namespace fs = std::filesystem;
using aorta::capture;

const fs::path fixtures = fs::path(AORTA_FIXTURES_DIR);

constexpr const char* header =
    "\"ID\",\"Process ID\",\"Process Name\",\"Host Name\",\"Kernel Name\",\"Context\",\"Stream\","
    "\"Block Size\",\"Grid Size\",\"Device\",\"CC\",\"Section Name\",\"Metric Name\","
    "\"Metric Unit\",\"Metric Value\"\n";

std::string row(int id, const std::string& kernel, const std::string& metric,
                const std::string& unit, const std::string& value) {
  return "\"" + std::to_string(id) + "\",\"1103\",\"app\",\"127.0.0.1\",\"" + kernel +
         "\",\"1\",\"7\",\"(256, 1, 1)\",\"(64, 1, 1)\",\"0\",\"9.0\",\"Command line profiler "
         "metrics\",\"" +
         metric + "\",\"" + unit + "\",\"" + value + "\"\n";
}

// Two launches of `gemm`, each with a time and one instruction count; `second` is the value of
// the second launch's count.
std::string two_launches(const std::string& second, const std::string& second_unit = "inst") {
  return std::string(header) + row(0, "gemm", "gpu__time_duration.sum", "ns", "1,000") +
         row(0, "gemm", "smsp__inst_executed.sum", "inst", "1,500,000") +
         row(1, "gemm", "gpu__time_duration.sum", "ns", "1,000") +
         row(1, "gemm", "smsp__inst_executed.sum", second_unit, second);
}

fs::path write_csv(const std::string& name, const std::string& text) {
  const fs::path dir = fs::temp_directory_path() / "aorta-ncu-counters" / name;
  fs::remove_all(dir);
  fs::create_directories(dir);
  std::ofstream(dir / "ncu.csv") << text;
  return dir / "ncu.csv";
}

bool has_note(const capture& c, const std::string& text) {
  return std::any_of(c.notes.begin(), c.notes.end(),
                     [&](const std::string& n) { return n.find(text) != std::string::npos; });
}

const aorta::kernel_counter* find_counter(const capture& c, const std::string& kernel,
                                          const std::string& metric) {
  for (const auto& counter : c.counters) {
    if (counter.kernel == kernel && counter.metric == metric) return &counter;
  }
  return nullptr;
}

TEST(NcuCounters, SummedOverLaunchesBesideTheTime) {
  const capture c = aorta::read_ncu_capture(write_csv("sum", two_launches("1,500,001")));
  ASSERT_EQ(c.kernels.size(), 1u);
  EXPECT_DOUBLE_EQ(c.kernels[0].total_ns, 2000.0);
  const auto* inst = find_counter(c, "gemm", "smsp__inst_executed.sum");
  ASSERT_NE(inst, nullptr);
  EXPECT_DOUBLE_EQ(inst->value, 3000001.0);
  EXPECT_EQ(inst->unit, "inst");
  const auto metrics = aorta::compute_metrics(c);
  const auto key = metrics.values.find("ncu_counter.smsp__inst_executed.sum/gemm");
  ASSERT_NE(key, metrics.values.end());
  EXPECT_DOUBLE_EQ(std::get<double>(key->second), 3000001.0);
}

TEST(NcuCounters, RepeatedRowOfOneLaunchCountsOnce) {
  const capture c = aorta::read_ncu_capture(write_csv(
      "repeat", two_launches("10") + row(1, "gemm", "smsp__inst_executed.sum", "inst", "10")));
  const auto* inst = find_counter(c, "gemm", "smsp__inst_executed.sum");
  ASSERT_NE(inst, nullptr);
  EXPECT_DOUBLE_EQ(inst->value, 1500010.0);
}

// n/a, text, negative, past double's range, a unit unlike the first launch's: the counter is
// dropped for the kernel, with a note naming the file, the row and the metric; the time stays.
TEST(NcuCounters, HostileValuesDropTheCounterWithANote) {
  struct hostile {
    std::string name, value, unit, said;
  };
  for (const auto& bad : {hostile{"na", "n/a", "inst", "is 'n/a', not a number"},
                          hostile{"text", "lots", "inst", "is 'lots', not a number"},
                          hostile{"negative", "-5", "inst", "is -5, not a finite non-negative"},
                          hostile{"huge", "1e999", "inst", "is 1e999, not a finite non-negative"},
                          hostile{"unit", "7", "Kinst", "is in 'Kinst' where an earlier"}}) {
    SCOPED_TRACE(bad.name);
    const fs::path file = write_csv(bad.name, two_launches(bad.value, bad.unit));
    const capture c = aorta::read_ncu_capture(file);
    EXPECT_EQ(find_counter(c, "gemm", "smsp__inst_executed.sum"), nullptr);
    EXPECT_TRUE(
        has_note(c, file.string() + " row 5: smsp__inst_executed.sum of kernel 'gemm' " + bad.said))
        << (c.notes.empty() ? "" : c.notes.back());
    ASSERT_EQ(c.kernels.size(), 1u);
    EXPECT_DOUBLE_EQ(c.kernels[0].total_ns, 2000.0);
    EXPECT_EQ(aorta::compute_metrics(c).values.count("ncu_counter.smsp__inst_executed.sum/gemm"),
              0u);
  }
}

TEST(NcuCounters, SumPastTheLargestDoubleIsDroppedNotInfinite) {
  const capture c = aorta::read_ncu_capture(write_csv("overflow", two_launches("1.7e308")));
  // 1,500,000 + 1.7e308 is finite; a third launch of 1.7e308 is not.
  const capture more = aorta::read_ncu_capture(write_csv(
      "overflow3", two_launches("1.7e308") + row(2, "gemm", "gpu__time_duration.sum", "ns", "1") +
                       row(2, "gemm", "smsp__inst_executed.sum", "inst", "1.7e308")));
  ASSERT_NE(find_counter(c, "gemm", "smsp__inst_executed.sum"), nullptr);
  EXPECT_EQ(find_counter(more, "gemm", "smsp__inst_executed.sum"), nullptr);
  EXPECT_TRUE(has_note(more, "sums past the largest finite number"));
}

// A raw page's columns mix metrics with ncu's launch attributes (launch__*, device__attribute_*,
// text and n/a among them: tests/fixtures/h200/ncu_vecadd_raw), so it gives times only.
// The bound of guards.md: one (kernel, metric) pair past max_ncu_counters fails the read naming
// the limit, instead of growing the capture without end.
TEST(NcuCounters, MorePairsThanTheLimitAreRefusedNamingIt) {
  std::string text(header);
  text += row(0, "gemm", "gpu__time_duration.sum", "ns", "1,000");
  for (std::size_t i = 0; i <= aorta::detail::max_ncu_counters; ++i) {
    text += row(0, "gemm", "smsp__m" + std::to_string(i) + ".sum", "inst", "1");
  }
  try {
    (void)aorta::read_ncu_capture(write_csv("too_many_pairs", text));
    ADD_FAILURE() << "a capture past max_ncu_counters was read";
  } catch (const aorta::capture_error& e) {
    EXPECT_NE(std::string(e.what()).find("max_ncu_counters"), std::string::npos) << e.what();
  }
}

TEST(NcuCounters, RawPageGivesTimesButNoCounters) {
  const capture c = aorta::read_ncu_capture(fixtures / "h200" / "ncu_vecadd_raw");
  EXPECT_FALSE(c.kernels.empty());
  EXPECT_TRUE(c.counters.empty());
}

// Hand-made: the ==ERROR== prefix as ncu prints it (tests/fixtures/h200/ncu_plus_proton).
TEST(NcuCounters, NcuErrorInTheLogFailsQuotingIt) {
  const fs::path file =
      write_csv("error", "==PROF== Connected to process 7 (/tmp/cuda_gemm)\n"
                         "==ERROR== ERR_NVGPUCTRPERM - The user does not have permission\n");
  try {
    (void)aorta::read_ncu_capture(file);
    FAIL() << "an ncu error was read as a capture";
  } catch (const aorta::capture_error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("ncu reported an error"), std::string::npos) << what;
    EXPECT_NE(what.find("ERR_NVGPUCTRPERM - The user"), std::string::npos) << what;
  }
}

// Real: ncu 2025.3.1 on the H200 given a metric the GPU lacks prints no error and exits 0; every
// launch has the metric as n/a with no unit (tests/fixtures/h200/README.md, ncu_bad_metric).
TEST(NcuCounters, MetricTheGpuLacksFailsNamingItAndTheKey) {
  try {
    (void)aorta::read_ncu_capture(fixtures / "h200" / "ncu_bad_metric");
    FAIL() << "a metric that is n/a in every launch was read as a capture";
  } catch (const aorta::capture_error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("no value of aorta_no_such__metric.sum for any launch"), std::string::npos)
        << what;
    EXPECT_NE(what.find("collect.ncu.metrics"), std::string::npos) << what;
    EXPECT_NE(what.find("ncu --query-metrics"), std::string::npos) << what;
  }
}

// Real: the set `work` on 5 launches (ncu_work) against 10 launches of the same kernel
// (ncu_gate/baseline): the instruction count is per launch the same, so twice the launches is
// exactly twice the count.
TEST(NcuCounters, RealH200InstructionsScaleWithLaunches) {
  const capture five = aorta::read_ncu_capture(fixtures / "h200" / "ncu_work");
  const capture ten =
      aorta::read_ncu_capture(fixtures / "h200" / "ncu_gate" / "baseline" / "trial_0");
  ASSERT_EQ(five.kernels.size(), 1u);
  EXPECT_EQ(five.kernels[0].launches, 5u);
  EXPECT_EQ(ten.kernels[0].launches, 10u);
  const std::string& kernel = five.kernels[0].name;
  for (const char* metric : {"smsp__inst_executed.sum", "dram__bytes.sum", "lts__t_bytes.sum"}) {
    SCOPED_TRACE(metric);
    ASSERT_NE(find_counter(five, kernel, metric), nullptr);
    ASSERT_NE(find_counter(ten, kernel, metric), nullptr);
    EXPECT_GT(find_counter(five, kernel, metric)->value, 0.0);
  }
  EXPECT_EQ(find_counter(ten, kernel, "smsp__inst_executed.sum")->value,
            2 * find_counter(five, kernel, "smsp__inst_executed.sum")->value);
  EXPECT_EQ(find_counter(five, kernel, "dram__bytes.sum")->unit, "byte");
  EXPECT_TRUE(five.notes.empty()) << five.notes.front();
}

TEST(NcuCounters, ApplicationExitStatusLineIsNotAnNcuError) {
  EXPECT_NO_THROW((void)aorta::read_ncu_capture(fixtures / "h200" / "ncu_plus_proton"));
}

capture counted_capture() {
  capture c;
  c.collector = "ncu";
  c.kernels.push_back({"gemm_big", 2, 10.0});
  c.kernels.push_back({"gemm_small", 3, 5.0});
  c.counters.push_back({"gemm_big", "smsp__inst_executed.sum", "inst", 1000.0});
  c.counters.push_back({"gemm_small", "smsp__inst_executed.sum", "inst", 24.0});
  c.counters.push_back({"gemm_small", "dram__bytes.sum", "byte", 4096.0});
  return c;
}

TEST(NcuCheck, SumsTheMatchingKernelsOfOneMetric) {
  const auto check = aorta::check_expression::parse("ncu(smsp__inst_executed.sum, ^gemm) == 1024");
  EXPECT_EQ(check.quantity(), aorta::check_quantity::ncu);
  const auto result =
      aorta::evaluate_check(check, {counted_capture()}, aorta::compute_metrics(counted_capture()));
  EXPECT_TRUE(result.passed) << result.actual;
  const auto ratio = aorta::check_expression::parse(
      "ncu(smsp__inst_executed.sum, big) / ncu(smsp__inst_executed.sum, small) > 40");
  EXPECT_TRUE(
      aorta::evaluate_check(ratio, {counted_capture()}, aorta::compute_metrics(counted_capture()))
          .passed);
}

TEST(NcuCheck, AMetricNotCollectedFailsSayingSo) {
  const auto check = aorta::check_expression::parse("ncu(lts__t_bytes.sum, gemm) > 0");
  const auto result =
      aorta::evaluate_check(check, {counted_capture()}, aorta::compute_metrics(counted_capture()));
  EXPECT_FALSE(result.passed);
  EXPECT_NE(result.message.find("lts__t_bytes.sum was not collected"), std::string::npos)
      << result.message;
}

TEST(NcuCheck, BadArgumentsAreGrammarErrors) {
  for (const char* text : {"ncu(gemm) > 0", "ncu(not a metric, gemm) > 0", "ncu(x__y.sum, ) > 0",
                           "ncu(nounderscore.sum, gemm) > 0", "ncu(x__y.sum, gem[) > 0"}) {
    SCOPED_TRACE(text);
    EXPECT_THROW((void)aorta::check_expression::parse(text), aorta::usage_error);
  }
  // The metric ends at the first comma, so a regex may hold commas.
  EXPECT_NO_THROW((void)aorta::check_expression::parse("ncu(x__y.sum, a{1,3}) > 0"));
}

aorta::recipe recipe_collecting(const std::string& metrics) {
  aorta::recipe spec;
  spec.path = "r.yaml";
  aorta::collector_request ncu;
  ncu.name = "ncu";
  if (!metrics.empty()) ncu.options["metrics"] = aorta::option_value{metrics, {}};
  spec.collect.push_back(ncu);
  return spec;
}

TEST(NcuCheck, RefusedAtLoadWhenTheRecipeDoesNotCollectTheMetric) {
  const std::vector<aorta::check_expression> checks{
      aorta::check_expression::parse("ncu(smsp__inst_executed.sum, gemm) <= baseline + 1%")};
  EXPECT_NO_THROW(aorta::require_collectors_for_checks(recipe_collecting("work"), checks));
  EXPECT_NO_THROW(
      aorta::require_collectors_for_checks(recipe_collecting("instructions"), checks));
  try {
    aorta::require_collectors_for_checks(recipe_collecting("bytes"), checks);
    FAIL() << "a check on an uncollected counter was accepted";
  } catch (const aorta::recipe_error& e) {
    EXPECT_EQ(e.code(), aorta::exit_code::usage);
    const std::string what = e.what();
    EXPECT_NE(what.find("add it to collect.ncu.metrics"), std::string::npos) << what;
    EXPECT_NE(what.find("smsp__inst_executed.sum"), std::string::npos) << what;
  }
  const std::vector<aorta::check_expression> metric_form{
      aorta::check_expression::parse("ncu_counter.dram__bytes.sum/gemm > 0")};
  EXPECT_THROW(aorta::require_collectors_for_checks(recipe_collecting(""), metric_form),
               aorta::recipe_error);
  EXPECT_NO_THROW(
      aorta::require_collectors_for_checks(recipe_collecting("bytes"), metric_form));
}

}  // namespace
