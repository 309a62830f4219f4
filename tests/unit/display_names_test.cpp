// Issue 11: kernel names demangled (by the ABI's demangler) and shortened, tables within 120
// columns on the real H200 ncu captures, callgrind's functions ranked with the loader folded.
#include "aorta/metrics.hpp"
#include "captures/ncu_reader.hpp"
#include "metrics/display_names.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <sstream>
#include <string>

namespace aorta {
namespace {
namespace fs = std::filesystem;

std::size_t columns_of(const std::string& line) {
  return static_cast<std::size_t>(
      std::count_if(line.begin(), line.end(), [](char c) { return (c & 0xC0) != 0x80; }));
}

TEST(DisplayNames, DemangledByTheAbi) {
  EXPECT_EQ(detail::demangled_name("_ZN2at6native13reduce_kernelILi512ELi1EEEvv"),
            "void at::native::reduce_kernel<512, 1>()");
  EXPECT_EQ(detail::demangled_name("add_kernel"), "add_kernel");
  EXPECT_EQ(detail::demangled_name("_Znot_valid"), "_Znot_valid");
}

TEST(DisplayNames, ShortFormDropsReturnTypeAndParameters) {
  EXPECT_EQ(detail::short_name("_ZN2at6native13reduce_kernelILi512ELi1EEEvv", 80),
            "at::native::reduce_kernel<512, 1>");
  EXPECT_EQ(detail::short_name("void sgemm_tiled(const float *, const float *, float *, int)", 80),
            "sgemm_tiled");
  // Too long: head and tail kept, so two instantiations differing at the end stay apart.
  const std::string a = detail::short_name("void f<" + std::string(100, 'x') + ", 1>(int)", 40);
  const std::string b = detail::short_name("void f<" + std::string(100, 'x') + ", 2>(int)", 40);
  EXPECT_NE(a, b);
  EXPECT_EQ(columns_of(a), 40U);
  EXPECT_EQ(detail::short_name("(below main)", 80), "(below main)");
}

class NcuTableWidth : public ::testing::TestWithParam<const char*> {};

TEST_P(NcuTableWidth, FitsIn120ColumnsWithReadableNames) {
  const capture got = read_ncu_capture(fs::path(AORTA_FIXTURES_DIR) / "h200" / GetParam());
  ASSERT_FALSE(got.kernels.empty());
  const std::string table = format_metrics_table(compute_metrics(got));
  std::istringstream lines(table);
  std::string line;
  bool saw_torch_kernel = false;
  while (std::getline(lines, line)) {
    if (line.starts_with("note:") || line.starts_with("ncu_artifact_dir")) continue;
    EXPECT_LE(columns_of(line), 120U) << line;
    EXPECT_EQ(line.find("_ZN"), std::string::npos) << line;
    saw_torch_kernel |= line.starts_with("at::");
  }
  EXPECT_TRUE(saw_torch_kernel) << table;
}

INSTANTIATE_TEST_SUITE_P(H200, NcuTableWidth,
                         ::testing::Values("ncu_vecadd", "ncu_vecadd_raw",
                                           "ncu_plus_instrumentation"));

TEST(DisplayNames, CallgrindRankedOwnFirstLoaderFolded) {
  metric_set metrics;
  metrics.values["callgrind_total_ir"] = std::int64_t{5000};
  metrics.values["callgrind_ir._dl_start"] = std::int64_t{3000};
  metrics.values["callgrind_self_ir._dl_start"] = std::int64_t{10};
  metrics.values["callgrind_ir.(below main)"] = std::int64_t{2000};
  metrics.values["callgrind_self_ir.(below main)"] = std::int64_t{1};
  metrics.values["callgrind_ir.strcmp [strcmp-sse2.S in ld-linux-x86-64.so.2]"] = std::int64_t{7};
  metrics.values["callgrind_ir.aaa_small"] = std::int64_t{100};
  metrics.values["callgrind_self_ir.aaa_small"] = std::int64_t{100};
  metrics.values["callgrind_ir.main"] = std::int64_t{1900};
  metrics.values["callgrind_self_ir.main"] = std::int64_t{5};
  std::vector<std::string> folded;
  std::vector<std::string> names;
  detail::visit_ordered_metric_names(metrics, folded,
                                     [&names](std::string_view name) { names.emplace_back(name); });
  const std::vector<std::string> expected{
      "callgrind_total_ir",        "callgrind_ir.main",         "callgrind_self_ir.main",
      "callgrind_ir.aaa_small",    "callgrind_self_ir.aaa_small"};
  EXPECT_EQ(names, expected);
  const std::vector<std::string> expected_folded{
      "_dl_start", "(below main)", "strcmp [strcmp-sse2.S in ld-linux-x86-64.so.2]"};
  EXPECT_EQ(folded, expected_folded);
  const std::string table = format_metrics_table(metrics);
  EXPECT_NE(table.find("(+3 loader/libc function(s) folded: _dl_start, (below main), "),
            std::string::npos)
      << table;
}

}  // namespace
}  // namespace aorta
