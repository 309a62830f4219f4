#include "captures/ncu_reader.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>

namespace {

namespace fs = std::filesystem;
using aorta::capture;

const fs::path fixtures = fs::path(AORTA_FIXTURES_DIR) / "ncu";
const std::string sgemm = "sgemm_tiled(float const*, float const*, float*, int)";

bool has_note(const capture& c, const std::string& text) {
  return std::any_of(c.notes.begin(), c.notes.end(),
                     [&](const std::string& n) { return n.find(text) != std::string::npos; });
}

TEST(ncu_reader, details_page_after_profiler_chatter) {
  const capture c = aorta::read_ncu_capture(fixtures / "preamble_details.csv");
  EXPECT_EQ(c.collector, "ncu");
  EXPECT_EQ(c.artifact_dir, fs::absolute(fixtures).lexically_normal());
  ASSERT_EQ(c.kernels.size(), 2u);
  // 1,215.50 us + 2,000 ns; the repeated row for ID 1 is not a second launch.
  EXPECT_EQ(c.kernels[0].name, sgemm);
  EXPECT_EQ(c.kernels[0].launches, 2u);
  EXPECT_DOUBLE_EQ(c.kernels[0].total_ns, 1217500.0);
  // 0.5 ms + 0.000001 s
  EXPECT_EQ(c.kernels[1].name, "reduce_sum");
  EXPECT_EQ(c.kernels[1].launches, 2u);
  EXPECT_DOUBLE_EQ(c.kernels[1].total_ns, 501000.0);
  EXPECT_TRUE(has_note(c, "1 repeated gpu__time_duration.sum rows"));
  EXPECT_EQ(c.files.size(), 1u);
}

TEST(ncu_reader, raw_page_units_come_from_the_second_row) {
  const capture c = aorta::read_ncu_capture(fixtures / "raw_page.csv");
  ASSERT_EQ(c.kernels.size(), 1u);
  EXPECT_EQ(c.kernels[0].name, "vector_add");
  EXPECT_EQ(c.kernels[0].launches, 2u);
  EXPECT_DOUBLE_EQ(c.kernels[0].total_ns, 1004000.0);  // 3.25 us + 1,000.75 us
}

TEST(ncu_reader, european_decimal_comma) {
  const capture c = aorta::read_ncu_capture(fixtures / "european.csv");
  ASSERT_EQ(c.kernels.size(), 1u);
  EXPECT_DOUBLE_EQ(c.kernels[0].total_ns, 1215500.0);
}

TEST(ncu_reader, rows_without_the_time_metric_say_to_collect_it) {
  const capture c = aorta::read_ncu_capture(fixtures / "no_time_metric.csv");
  EXPECT_TRUE(c.empty());
  EXPECT_TRUE(has_note(c, "2 rows but no gpu__time_duration.sum metric; collect it"));
}

TEST(ncu_reader, header_only_and_non_time_units_give_no_kernels) {
  const capture header_only = aorta::read_ncu_capture(fixtures / "header_only.csv");
  EXPECT_TRUE(header_only.empty());
  EXPECT_TRUE(has_note(header_only, "header only"));
  const capture cycles = aorta::read_ncu_capture(fixtures / "bad_unit.csv");
  EXPECT_TRUE(cycles.empty());
  EXPECT_TRUE(has_note(cycles, "unit 'cycle' is not a time unit"));
}

TEST(ncu_reader, directory_reads_every_csv_and_sums_by_kernel) {
  const capture c = aorta::read_ncu_capture(fixtures);
  ASSERT_EQ(c.kernels.size(), 3u);
  EXPECT_EQ(c.kernels[0].name, sgemm);  // preamble_details + european
  EXPECT_EQ(c.kernels[0].launches, 3u);
  EXPECT_DOUBLE_EQ(c.kernels[0].total_ns, 1217500.0 + 1215500.0);
  EXPECT_EQ(c.kernels[1].name, "vector_add");
  EXPECT_EQ(c.kernels[2].name, "reduce_sum");
  EXPECT_EQ(c.files.size(), 3u);
}

TEST(ncu_reader, absent_path_is_an_empty_capture) {
  const capture c = aorta::read_ncu_capture(fixtures / "absent");
  EXPECT_TRUE(c.empty());
  EXPECT_TRUE(has_note(c, "no ncu output"));
}

}  // namespace
