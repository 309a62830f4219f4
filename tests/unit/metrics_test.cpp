#include "aorta/metrics.hpp"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>

namespace aorta {
namespace {

capture proton_capture() {
  capture source;
  source.collector = "proton";
  source.artifact_dir = "/tmp/trial_0/proton";
  source.kernels = {{"add_kernel", 20, 2'000'000.0}, {"mul_kernel", 40, 1'500'000.0}};
  return source;
}

std::int64_t int_of(const metric_set& metrics, const std::string& name) {
  return std::get<std::int64_t>(metrics.values.at(name));
}
double double_of(const metric_set& metrics, const std::string& name) {
  return std::get<double>(metrics.values.at(name));
}

TEST(Metrics, KernelMetricsUseTheOriginalNames) {
  const metric_set metrics = compute_metrics(proton_capture());
  EXPECT_EQ(int_of(metrics, "proton_kernel_count"), 60);
  EXPECT_DOUBLE_EQ(double_of(metrics, "proton_gpu_time_ms"), 3.5);
  EXPECT_DOUBLE_EQ(double_of(metrics, "proton_top_kernel_ms"), 2.0);
  EXPECT_EQ(std::get<std::vector<std::string>>(metrics.values.at("proton_top_kernels")),
            (std::vector<std::string>{"add_kernel", "mul_kernel"}));
  EXPECT_EQ(std::get<std::string>(metrics.values.at("proton_artifact_dir")), "/tmp/trial_0/proton");
  EXPECT_EQ(metrics.values.count("proton_backend"), 0U);
  EXPECT_EQ(metrics.values.size(), 5U);
  ASSERT_EQ(metrics.kernels.size(), 2U);
  EXPECT_EQ(metrics.kernels[1].name, "mul_kernel");
  EXPECT_EQ(metrics.kernels[1].launches, 40U);
  EXPECT_DOUBLE_EQ(metrics.kernels[1].total_ms, 1.5);
  EXPECT_EQ(metrics.kernels[1].collector, "proton");
}

TEST(Metrics, BackendIsReportedWhenKnown) {
  capture source = proton_capture();
  source.backend = "cupti";
  const metric_set metrics = compute_metrics(source);
  EXPECT_EQ(std::get<std::string>(metrics.values.at("proton_backend")), "cupti");
}

TEST(Metrics, OneUnknownCountOmitsTheKernelCountButKeepsTimes) {
  capture source = proton_capture();
  source.kernels.push_back({"mystery", std::nullopt, 100'000.0});
  const metric_set metrics = compute_metrics(source);
  EXPECT_EQ(metrics.values.count("proton_kernel_count"), 0U);
  EXPECT_DOUBLE_EQ(double_of(metrics, "proton_gpu_time_ms"), 3.6);
  ASSERT_EQ(metrics.notes.size(), 1U);
  EXPECT_NE(metrics.notes[0].find("proton_kernel_count omitted"), std::string::npos);
}

TEST(Metrics, ZeroLaunchCountIsKnownAndKept) {
  capture source = proton_capture();
  source.kernels.push_back({"never", 0, 0.0});
  EXPECT_EQ(int_of(compute_metrics(source), "proton_kernel_count"), 60);
}

TEST(Metrics, TopKernelsAreRankedByTimeAndCappedAtFive) {
  capture source;
  source.collector = "rocprof";
  source.artifact_dir = "/r";
  // Deliberately not in time order: the ranking must not trust the capture's order.
  for (const int ms : {3, 7, 1, 5, 2, 6, 4}) {
    source.kernels.push_back({"k" + std::to_string(ms), 1, ms * 1e6});
  }
  const metric_set metrics = compute_metrics(source);
  EXPECT_EQ(std::get<std::vector<std::string>>(metrics.values.at("rocprof_top_kernels")),
            (std::vector<std::string>{"k7", "k6", "k5", "k4", "k3"}));
  EXPECT_DOUBLE_EQ(double_of(metrics, "rocprof_top_kernel_ms"), 7.0);
  EXPECT_DOUBLE_EQ(double_of(metrics, "rocprof_gpu_time_ms"), 28.0);
  EXPECT_EQ(int_of(metrics, "rocprof_kernel_count"), 7);
  ASSERT_EQ(metrics.kernels.size(), 7U);  // the table keeps every kernel
  EXPECT_EQ(metrics.kernels.front().name, "k7");
  EXPECT_EQ(metrics.kernels.back().name, "k1");
}

TEST(Metrics, EmptyCaptureGivesOnlyTheArtifactDir) {
  capture source;
  source.collector = "proton";
  source.artifact_dir = "/a";
  const metric_set metrics = compute_metrics(source);
  ASSERT_EQ(metrics.values.size(), 1U);
  EXPECT_EQ(std::get<std::string>(metrics.values.at("proton_artifact_dir")), "/a");
  EXPECT_TRUE(metrics.kernels.empty());
}

TEST(Metrics, NonFiniteTotalIsOmittedWithANote) {
  capture source;
  source.collector = "proton";
  // Each is finite; their sum overflows to infinity.
  source.kernels = {{"a", 1, 1e308}, {"b", 1, 1e308}};
  const metric_set metrics = compute_metrics(source);
  EXPECT_EQ(metrics.values.count("proton_gpu_time_ms"), 0U);
  EXPECT_DOUBLE_EQ(double_of(metrics, "proton_top_kernel_ms"), 1e302);
  EXPECT_EQ(int_of(metrics, "proton_kernel_count"), 2);
  ASSERT_EQ(metrics.notes.size(), 1U);
  EXPECT_NE(metrics.notes[0].find("proton_gpu_time_ms omitted"), std::string::npos);
}

TEST(Metrics, ScopesAreSummedPerKernelAndScope) {
  capture source;
  source.collector = "proton";
  source.scopes = {{"unbalanced_kernel", "cheap", 100.0, 1.5},
                   {"unbalanced_kernel", "expensive", 5500.0, 80.0},
                   {"unbalanced_kernel", "cheap", 50.0, 0.5}};
  const metric_set metrics = compute_metrics(source);
  EXPECT_DOUBLE_EQ(double_of(metrics, "proton_scope_cycles.cheap"), 150.0);
  EXPECT_DOUBLE_EQ(double_of(metrics, "proton_scope_normalized_cycles.cheap"), 2.0);
  EXPECT_DOUBLE_EQ(double_of(metrics, "proton_scope_cycles.expensive"), 5500.0);
  EXPECT_DOUBLE_EQ(double_of(metrics, "proton_scope_normalized_cycles.expensive"), 80.0);
  EXPECT_EQ(metrics.values.count("proton_kernel_count"), 0U);
  EXPECT_TRUE(metrics.notes.empty());
}

TEST(Metrics, AScopeNameInTwoKernelsIsKeyedByKernelOnly) {
  capture source;
  source.collector = "proton";
  source.scopes = {{"k1", "loop", 10.0, 1.0}, {"k2", "loop", 30.0, 3.0}, {"k2", "tail", 4.0, 0.5}};
  const metric_set metrics = compute_metrics(source);
  EXPECT_EQ(metrics.values.count("proton_scope_cycles.loop"), 0U);
  EXPECT_DOUBLE_EQ(double_of(metrics, "proton_scope_cycles.k1/loop"), 10.0);
  EXPECT_DOUBLE_EQ(double_of(metrics, "proton_scope_cycles.k2/loop"), 30.0);
  EXPECT_DOUBLE_EQ(double_of(metrics, "proton_scope_normalized_cycles.k2/loop"), 3.0);
  EXPECT_DOUBLE_EQ(double_of(metrics, "proton_scope_cycles.tail"), 4.0);
  ASSERT_EQ(metrics.notes.size(), 1U);
  EXPECT_NE(metrics.notes[0].find("'loop' occurs in 2 kernels (k1, k2)"), std::string::npos);
}

// Sums, keys and notes as the scope pairs (scope, kernel) give them in name order, whatever the
// order of the entries: a scope literally named "k1/loop" and the ambiguous "loop" of kernel k1
// share a key, the later pair's finite value replacing the earlier one and a non-finite one
// leaving it, with a note.
TEST(Metrics, ScopeKeysSharedByTwoPairsKeepTheLaterFiniteValue) {
  capture source;
  source.collector = "proton";
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  source.scopes = {{"k2", "loop", 30.0, 3.0},
                   {"k3", "k1/loop", 7.0, 0.75},
                   {"k1", "loop", 10.0, 1.0},
                   {"k2", "tail", inf, 0.5},
                   {"k1", "loop", 5.0, nan}};
  const metric_set metrics = compute_metrics(source);
  EXPECT_DOUBLE_EQ(double_of(metrics, "proton_scope_cycles.k1/loop"), 15.0);
  EXPECT_DOUBLE_EQ(double_of(metrics, "proton_scope_normalized_cycles.k1/loop"), 0.75);
  EXPECT_DOUBLE_EQ(double_of(metrics, "proton_scope_cycles.k2/loop"), 30.0);
  EXPECT_DOUBLE_EQ(double_of(metrics, "proton_scope_normalized_cycles.k2/loop"), 3.0);
  EXPECT_EQ(metrics.values.count("proton_scope_cycles.tail"), 0U);
  EXPECT_DOUBLE_EQ(double_of(metrics, "proton_scope_normalized_cycles.tail"), 0.5);
  EXPECT_EQ(metrics.values.count("proton_scope_cycles.loop"), 0U);
  ASSERT_EQ(metrics.notes.size(), 3U);
  EXPECT_EQ(metrics.notes[0].find("proton_scope_normalized_cycles.k1/loop omitted"), 0U);
  EXPECT_EQ(metrics.notes[1].find("proton_scope_cycles.tail omitted"), 0U);
  EXPECT_NE(metrics.notes[2].find("'loop' occurs in 2 kernels (k1, k2)"), std::string::npos);
}

TEST(Metrics, CallgrindInstructionCounts) {
  capture source;
  source.collector = "callgrind";
  source.artifact_dir = "/c";
  source.functions = {{"cheap", 50, 50}, {"main", 10, 1000}, {"expensive", 900, 900}};
  const metric_set metrics = compute_metrics(source);
  EXPECT_EQ(int_of(metrics, "callgrind_total_ir"), 1000);
  EXPECT_EQ(int_of(metrics, "callgrind_ir.expensive"), 900);
  EXPECT_EQ(int_of(metrics, "callgrind_ir.main"), 1000);
  EXPECT_EQ(int_of(metrics, "callgrind_self_ir.main"), 10);
  EXPECT_EQ(int_of(metrics, "callgrind_self_ir.cheap"), 50);
  EXPECT_EQ(metrics.values.count("callgrind_kernel_count"), 0U);
  EXPECT_EQ(metrics.values.count("callgrind_gpu_time_ms"), 0U);
}

TEST(Metrics, CallgrindFunctionKeysAreCapped) {
  capture source;
  source.collector = "callgrind";
  for (std::uint64_t i = 1; i <= 30; ++i)
    source.functions.push_back({"f" + std::to_string(i), i, i * 10});
  const metric_set metrics = compute_metrics(source);
  std::size_t inclusive_keys = 0;
  for (const auto& [name, value] : metrics.values)
    inclusive_keys += name.starts_with("callgrind_ir.");
  EXPECT_EQ(inclusive_keys, callgrind_metric_function_limit);
  EXPECT_EQ(metrics.values.count("callgrind_ir.f30"), 1U);
  EXPECT_EQ(metrics.values.count("callgrind_ir.f6"), 1U);  // 25th largest
  EXPECT_EQ(metrics.values.count("callgrind_ir.f5"), 0U);  // 26th
  EXPECT_EQ(int_of(metrics, "callgrind_total_ir"), 300);
  EXPECT_EQ(metrics.notes.size(), 1U);
}

TEST(Metrics, MergeAppendsKernelsAndNotesAClash) {
  metric_set into = compute_metrics(proton_capture());
  capture other = proton_capture();
  other.collector = "rocprof";
  merge_metrics(into, compute_metrics(other));
  EXPECT_EQ(int_of(into, "rocprof_kernel_count"), 60);
  EXPECT_EQ(int_of(into, "proton_kernel_count"), 60);
  ASSERT_EQ(into.kernels.size(), 4U);
  EXPECT_EQ(into.kernels[2].collector, "rocprof");
  EXPECT_TRUE(into.notes.empty());

  metric_set clash;
  clash.values["proton_kernel_count"] = std::int64_t{7};
  merge_metrics(into, clash);
  EXPECT_EQ(int_of(into, "proton_kernel_count"), 7);
  ASSERT_EQ(into.notes.size(), 1U);
  EXPECT_NE(into.notes[0].find("later value 7 replaced 60"), std::string::npos);
}

// A check's 80,000 kernel rows were copied once more by the merge: moved, the merged set holds
// the very rows compute_metrics made, and the copying merge still leaves `from` whole.
TEST(Metrics, MergeOfATemporaryMovesTheKernelRows) {
  metric_set made = compute_metrics(proton_capture());
  const kernel_row* rows = made.kernels.data();
  const std::size_t count = made.kernels.size();
  metric_set into;
  merge_metrics(into, std::move(made));
  ASSERT_EQ(into.kernels.size(), count);
  EXPECT_EQ(into.kernels.data(), rows);

  const metric_set kept = compute_metrics(proton_capture());
  merge_metrics(into, kept);
  ASSERT_EQ(into.kernels.size(), 2 * count);
  EXPECT_EQ(kept.kernels.size(), count);
  EXPECT_EQ(into.kernels[count].name, kept.kernels[0].name);
}

// Kernels out of time order, with a tie (rows keep the capture's order for equal times), names
// too long to be held inside std::string, and an unknown launch count.
capture unordered_capture() {
  capture source;
  source.collector = "rocprof";
  source.artifact_dir = "/tmp/trial_0/rocprof";
  source.kernels = {{"a_kernel_with_a_name_longer_than_sso_1", 1, 5.0e6},
                    {"a_kernel_with_a_name_longer_than_sso_2", std::nullopt, 9.0e6},
                    {"a_kernel_with_a_name_longer_than_sso_3", 3, 5.0e6},
                    {"a_kernel_with_a_name_longer_than_sso_4", 4, 7.5e5}};
  return source;
}

// `aorta check` makes its kernel rows after the checks, moving the capture's names: one set of
// names at the peak instead of two. The rows are those compute_metrics copies, the names are the
// capture's own buffers, and the capture's kernel list is freed, not just emptied.
TEST(Metrics, MovedKernelRowsAreTheCopiedRowsWithTheCapturesOwnNames) {
  const metric_set copied = compute_metrics(unordered_capture());
  capture source = unordered_capture();
  metric_set deferred = compute_metrics(source, kernel_rows::deferred);
  EXPECT_TRUE(deferred.kernels.empty());
  EXPECT_EQ(deferred.values, copied.values);
  EXPECT_EQ(deferred.notes, copied.notes);

  std::vector<const char*> buffers;
  for (const kernel_stat& kernel : source.kernels) buffers.push_back(kernel.name.data());
  move_kernel_rows(source, deferred);
  EXPECT_TRUE(source.kernels.empty());
  EXPECT_EQ(source.kernels.capacity(), 0U);
  ASSERT_EQ(deferred.kernels.size(), copied.kernels.size());
  for (std::size_t i = 0; i < copied.kernels.size(); ++i) {
    const kernel_row& row = deferred.kernels[i];
    EXPECT_EQ(row.name, copied.kernels[i].name);
    EXPECT_EQ(row.launches, copied.kernels[i].launches);
    EXPECT_EQ(row.total_ms, copied.kernels[i].total_ms);
    EXPECT_EQ(row.collector, copied.kernels[i].collector);
    EXPECT_NE(std::find(buffers.begin(), buffers.end(), row.name.data()), buffers.end())
        << row.name << " was copied, not moved";
  }
  EXPECT_EQ(deferred.kernels[1].name, "a_kernel_with_a_name_longer_than_sso_1");
  EXPECT_EQ(deferred.kernels[2].name, "a_kernel_with_a_name_longer_than_sso_3");
}

TEST(Metrics, TableIsAligned) {
  metric_set metrics;
  metrics.values["a_x"] = std::int64_t{5};
  metrics.values["bb"] = 1.5;
  metrics.kernels.push_back({"k", 3, 0.25, "proton"});
  metrics.kernels.push_back({"long_kernel_name", std::nullopt, 12.0, "proton"});
  EXPECT_EQ(format_metrics_table(metrics), "a_x  5\n"
                                           "bb   1.5\n"
                                           "\n"
                                           "kernel            launches  total ms\n"
                                           "k                        3      0.25\n"
                                           "long_kernel_name   unknown        12\n");
}

// A name past half the table's 120 columns is shown as its first 40 bytes, "…" and its last 19
// (60 columns), and the values line up after it.
TEST(Metrics, TableShortensLongNamesAndAlignsAfterThem) {
  const std::string long_name = "proton_scope_cycles." + std::string(30, 'x') + std::string(30, 'y');
  metric_set metrics;
  metrics.values["a"] = std::int64_t{1};
  metrics.values[long_name] = std::int64_t{2};
  EXPECT_EQ(format_metrics_table(metrics), "a" + std::string(59, ' ') + "  1\n" +
                                               long_name.substr(0, 40) + "…" +
                                               std::string(19, 'y') + "  2\n");
}

TEST(Metrics, ValueFormatting) {
  EXPECT_EQ(format_metric_value(0.398), "0.398");
  EXPECT_EQ(format_metric_value(8608876.0), "8608876");
  EXPECT_EQ(format_metric_value(1.23456789), "1.2346");
  EXPECT_EQ(format_metric_value(0.00001), "1e-05");
  EXPECT_EQ(format_metric_value(std::int64_t{-3}), "-3");
  EXPECT_EQ(format_metric_value(std::vector<std::string>{"a", "b"}), "a, b");
  EXPECT_EQ(numeric_value(std::string("x")), std::nullopt);
}

// Whole numbers are printed without fmt's arbitrary-precision path; the text must stay "{:.0f}"'s.
TEST(Metrics, WholeNumbersReadAsFixedNotationWithoutDecimals) {
  for (const double whole : {0.0, -0.0, 1.0, -1.0, 1000.0, 101999.0, 9007199254.0,
                             123456789012345.0, 999999999999999.0, -999999999999999.0}) {
    EXPECT_EQ(format_metric_value(whole), fmt::format("{:.0f}", whole)) << whole;
  }
  EXPECT_EQ(numeric_value(std::int64_t{4}), 4.0);
}

}  // namespace
}  // namespace aorta
