// The quantity table (metrics/quantity_table.hpp): every quantity declared once, in agreement with
// the check grammar's forms, and the rules that read it (timed or exact, the not-measured rule).
#include "checks/check_forms.hpp"
#include "metrics/quantity_table.hpp"

#include <gtest/gtest.h>

#include <set>
#include <string>

namespace {

using aorta::check_quantity;
using aorta::detail::declaration_of;
using aorta::detail::quantity_table;

// The last enumerator of check_quantity: a quantity added after it must move this line, and the
// test below then fails until the table declares it.
constexpr auto last_quantity = check_quantity::warnings;

TEST(QuantityTable, DeclaresEveryQuantityOnce) {
  std::set<check_quantity> declared;
  std::set<std::string_view> names;
  for (const auto& row : quantity_table()) {
    EXPECT_TRUE(declared.insert(row.quantity).second) << row.check_name << " is declared twice";
    EXPECT_TRUE(names.insert(row.check_name).second) << row.check_name;
    EXPECT_FALSE(row.display_name.empty()) << row.check_name;
  }
  for (int i = 0; i <= static_cast<int>(last_quantity); ++i) {
    const auto quantity = static_cast<check_quantity>(i);
    EXPECT_TRUE(declared.contains(quantity)) << "check_quantity " << i << " has no declaration";
    EXPECT_EQ(declaration_of(quantity).quantity, quantity);
  }
  EXPECT_EQ(quantity_table().size(), static_cast<std::size_t>(last_quantity) + 1);
}

TEST(QuantityTable, NamesAgreeWithTheCheckGrammar) {
  for (const auto& form : aorta::detail::function_forms) {
    EXPECT_EQ(declaration_of(form.quantity).check_name, form.name);
    EXPECT_EQ(aorta::to_string(form.quantity), form.name);
  }
}

// A metric key belongs to at most one quantity: no prefix starts another.
TEST(QuantityTable, MetricPrefixesAreDistinctAndRoundTrip) {
  for (const auto& a : quantity_table()) {
    if (a.metric_prefix.empty()) continue;
    EXPECT_TRUE(a.metric_prefix.ends_with('.')) << a.metric_prefix;
    for (const auto& b : quantity_table()) {
      if (&a == &b || b.metric_prefix.empty()) continue;
      EXPECT_FALSE(b.metric_prefix.starts_with(a.metric_prefix))
          << a.metric_prefix << " is a prefix of " << b.metric_prefix;
    }
    const std::string key = aorta::detail::metric_key(a.quantity, "loop");
    ASSERT_EQ(aorta::detail::declaration_of_metric(key), &a) << key;
    EXPECT_EQ(aorta::detail::metric_name_in(a.quantity, key), "loop");
  }
  EXPECT_EQ(aorta::detail::declaration_of_metric("proton_gpu_time_ms"), nullptr);
  EXPECT_EQ(aorta::detail::metric_key(check_quantity::cycles, "loop"), "proton_scope_cycles.loop");
  EXPECT_EQ(aorta::detail::metric_key(check_quantity::ncu, "dram__bytes.sum/gemm"),
            "ncu_counter.dram__bytes.sum/gemm");
}

// A baseline file keeps a series under [section, name, field]; two quantities in one place would
// read back as one.
TEST(QuantityTable, BaselinePlacesAreDistinct) {
  std::set<std::pair<std::string_view, std::string_view>> places;
  for (const auto& row : quantity_table()) {
    if (row.baseline_field.empty()) continue;
    EXPECT_TRUE(places.emplace(row.baseline_section, row.baseline_field).second)
        << row.check_name;
  }
}

TEST(QuantityTable, TimedOrExactIsDecidedByTheDeclaration) {
  using aorta::detail::is_exact_quantity;
  using aorta::detail::is_timed_quantity;
  EXPECT_TRUE(is_timed_quantity(check_quantity::time_ms));
  EXPECT_TRUE(is_timed_quantity(check_quantity::cycles));
  EXPECT_TRUE(is_timed_quantity(check_quantity::normalized_cycles));
  EXPECT_FALSE(is_timed_quantity(check_quantity::count));
  EXPECT_FALSE(is_timed_quantity(check_quantity::metric));
  EXPECT_TRUE(is_exact_quantity(check_quantity::count, ""));
  EXPECT_TRUE(is_exact_quantity(check_quantity::ir, ""));
  EXPECT_TRUE(is_exact_quantity(check_quantity::ncu, ""));
  EXPECT_FALSE(is_exact_quantity(check_quantity::time_ms, ""));
  EXPECT_FALSE(is_exact_quantity(check_quantity::samples, ""));
  // A plain metric: its name decides.
  EXPECT_TRUE(is_exact_quantity(check_quantity::metric, "ncu_kernel_count"));
  EXPECT_TRUE(is_exact_quantity(check_quantity::metric, "callgrind_total_ir"));
  EXPECT_TRUE(is_exact_quantity(check_quantity::metric, "ncu_counter.dram__bytes.sum/gemm"));
  EXPECT_FALSE(is_exact_quantity(check_quantity::metric, "proton_gpu_time_ms"));
  EXPECT_FALSE(is_exact_quantity(check_quantity::metric, "proton_scope_cycles.loop"));
}

TEST(QuantityTable, OnlyCountsReadZeroWhenNothingMatches) {
  using aorta::detail::reads_zero_when_absent;
  for (const auto& row : quantity_table()) {
    const bool counts = row.quantity == check_quantity::count ||
                        row.quantity == check_quantity::errors ||
                        row.quantity == check_quantity::warnings;
    EXPECT_EQ(reads_zero_when_absent(row.quantity, false), counts) << row.check_name;
    EXPECT_TRUE(reads_zero_when_absent(row.quantity, true)) << row.check_name << "?";
  }
}

// A row says everything its readers ask: evaluation reads a kernel, scope or function entry
// through `reads`, counts findings of `finding_severity`, and the parser refuses a baseline bound
// on a quantity no baseline keeps with `baseline_refusal`. A row missing one fails here, not as a
// null pointer or an empty message at run time.
TEST(QuantityTable, EveryRowDeclaresWhatItsSourceNeeds) {
  using aorta::detail::value_source;
  for (const auto& row : quantity_table()) {
    const auto& reads = row.reads;
    const bool numeric_entry = row.numeric && row.source != value_source::metrics;
    EXPECT_EQ(reads.kernel != nullptr, numeric_entry && row.source == value_source::kernels)
        << row.check_name;
    EXPECT_EQ(reads.scope != nullptr, numeric_entry && row.source == value_source::scopes)
        << row.check_name;
    EXPECT_EQ(reads.function != nullptr, numeric_entry && row.source == value_source::functions)
        << row.check_name;
    EXPECT_EQ(row.finding_severity.empty(), row.source != value_source::findings) << row.check_name;
    EXPECT_EQ(row.baseline_refusal.empty(),
              !row.numeric || aorta::detail::kept_in_baseline(row.quantity))
        << row.check_name;
    // Only a PC-sample argument has a place for a stall reason (split_pc_sample_argument).
    EXPECT_TRUE(!row.argument_names_reason || row.source == value_source::pc_samples)
        << row.check_name;
  }
}

TEST(QuantityTable, MetricKindsByName) {
  EXPECT_TRUE(aorta::detail::is_error_metric("sanitizer_error_count"));
  EXPECT_TRUE(aorta::detail::is_error_metric("sanitizer_errors.invalid_global_write"));
  EXPECT_FALSE(aorta::detail::is_error_metric("sanitizer_warning_count"));
  EXPECT_TRUE(aorta::detail::is_scope_metric("proton_scope_normalized_cycles.loop"));
  EXPECT_FALSE(aorta::detail::is_scope_metric("proton_gpu_time_ms"));
  EXPECT_TRUE(aorta::detail::is_kernel_count_metric("proton_kernel_count"));
}

TEST(QuantityTable, LabelsNameTheCheckThatReadsTheValue) {
  using aorta::detail::quantity_label;
  EXPECT_EQ(quantity_label(declaration_of(check_quantity::cycles), "loop"), "cycles(loop)");
  EXPECT_EQ(quantity_label(declaration_of(check_quantity::ncu), "dram__bytes.sum/gemm"),
            "ncu(dram__bytes.sum, gemm)");
  EXPECT_EQ(quantity_label(declaration_of(check_quantity::ncu), "no_slash"), "ncu(no_slash)");
}

}  // namespace
