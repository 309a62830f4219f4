#include "captures/rocprof_reader.hpp"

#include "aorta/error.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>

#include <unistd.h>

namespace {

namespace fs = std::filesystem;
using aorta::capture;
using aorta::kernel_stat;

const fs::path fixtures = fs::path(AORTA_FIXTURES_DIR) / "rocprof";
const std::string sgemm = "sgemm_tiled(float const*, float const*, float*, int)";
const std::string foo = "void foo<int, 2>(float const*, int)";

const kernel_stat& kernel(const capture& c, const std::string& name) {
  const auto it = std::find_if(c.kernels.begin(), c.kernels.end(),
                               [&](const kernel_stat& k) { return k.name == name; });
  if (it == c.kernels.end()) throw std::runtime_error("no kernel " + name);
  return *it;
}

bool has_note(const capture& c, const std::string& text) {
  return std::any_of(c.notes.begin(), c.notes.end(),
                     [&](const std::string& n) { return n.find(text) != std::string::npos; });
}

std::vector<std::string> names(const capture& c) {
  std::vector<std::string> out;
  for (const auto& k : c.kernels) out.push_back(k.name);
  return out;
}

TEST(rocprof_reader, flat_layout_prefers_stats_over_trace) {
  const capture c = aorta::read_rocprof_capture(fixtures / "flat_stats");
  EXPECT_EQ(c.collector, "rocprof");
  EXPECT_TRUE(c.artifact_dir.is_absolute());
  EXPECT_EQ(names(c), (std::vector<std::string>{sgemm, foo, "say \"hi\" kernel"}));
  EXPECT_EQ(c.kernels[0].launches, 23u);
  EXPECT_DOUBLE_EQ(c.kernels[0].total_ns, 539404.0);
  EXPECT_EQ(c.kernels[1].launches, 5u);
  EXPECT_DOUBLE_EQ(c.kernels[1].total_ns, 100000.0);
  EXPECT_EQ(c.kernels[2].launches, 2u);
  EXPECT_DOUBLE_EQ(c.kernels[2].total_ns, 24596.0);
  ASSERT_EQ(c.files.size(), 1u);
  EXPECT_EQ(c.files[0].filename(), "aorta_kernel_stats.csv");
}

TEST(rocprof_reader, agent_info_gpu_rows_become_hip_devices) {
  const capture c = aorta::read_rocprof_capture(fixtures / "flat_stats");
  ASSERT_EQ(c.devices.size(), 2u);  // the CPU row is not a device
  EXPECT_EQ(c.devices[0].type, "HIP");
  EXPECT_EQ(c.devices[0].id, "0");
  EXPECT_EQ(c.devices[0].properties.at("arch"), "gfx942");
  EXPECT_EQ(c.devices[0].properties.at("product_name"), "AMD Instinct MI300X");
  EXPECT_EQ(c.devices[0].properties.at("node_id"), "2");
  EXPECT_EQ(c.devices[0].properties.at("cu_count"), "304");
  EXPECT_EQ(c.devices[1].id, "1");
  EXPECT_EQ(c.devices[1].properties.at("node_id"), "3");
}

// Two processes' agent tables list the same node's GPUs: each device once, in first-seen order,
// and a GPU whose properties differ is its own device.
TEST(rocprof_reader, agents_listed_by_two_files_are_one_device_each) {
  const fs::path dir = fs::temp_directory_path() / ("aorta-agents-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  const std::string header = "Node_Id,Agent_Type,Name\n";
  std::ofstream(dir / "100_agent_info.csv") << header << "1,CPU,x86\n2,GPU,gfx942\n3,GPU,gfx942\n";
  std::ofstream(dir / "200_agent_info.csv") << header << "2,GPU,gfx942\n3,GPU,gfx90a\n";
  std::ofstream(dir / "100_kernel_stats.csv") << "Name,Calls,TotalDurationNs\nk,1,10\n";
  const capture c = aorta::read_rocprof_capture(dir);
  fs::remove_all(dir);
  ASSERT_EQ(c.devices.size(), 3u);
  EXPECT_EQ(c.devices[0].properties.at("node_id"), "2");
  EXPECT_EQ(c.devices[1].properties.at("node_id"), "3");
  EXPECT_EQ(c.devices[1].properties.at("arch"), "gfx942");
  EXPECT_EQ(c.devices[2].id, "1");
  EXPECT_EQ(c.devices[2].properties.at("arch"), "gfx90a");
}

TEST(rocprof_reader, nested_22_column_trace_with_crlf) {
  const capture c = aorta::read_rocprof_capture(fixtures / "nested_trace22");
  // sgemm 100+200+300, foo 50+70, the empty-Kind row 10; MEMORY_COPY and unnamed rows are not
  // kernels (an inverted row fails the read: csv_bad_duration_test.cpp).
  EXPECT_EQ(names(c), (std::vector<std::string>{sgemm, foo, "bare_kind"}));
  EXPECT_EQ(kernel(c, sgemm).launches, 3u);
  EXPECT_DOUBLE_EQ(kernel(c, sgemm).total_ns, 600.0);
  EXPECT_EQ(kernel(c, foo).launches, 2u);
  EXPECT_DOUBLE_EQ(kernel(c, foo).total_ns, 120.0);
  EXPECT_EQ(kernel(c, "bare_kind").launches, 1u);
  EXPECT_DOUBLE_EQ(kernel(c, "bare_kind").total_ns, 10.0);
  EXPECT_TRUE(has_note(c, "1 of 8 rows skipped: Kind is not KERNEL_DISPATCH"));
  EXPECT_TRUE(has_note(c, "1 of 8 rows dropped: empty Kernel_Name"));
  ASSERT_EQ(c.devices.size(), 1u);
  EXPECT_EQ(c.devices[0].properties.at("arch"), "gfx942");
}

TEST(rocprof_reader, eighteen_column_trace) {
  const capture c = aorta::read_rocprof_capture(fixtures / "trace18");
  const std::string add = "vector_add(float*, float const*, int)";
  EXPECT_EQ(names(c), (std::vector<std::string>{add, "reduce_sum"}));
  EXPECT_EQ(kernel(c, add).launches, 2u);
  EXPECT_DOUBLE_EQ(kernel(c, add).total_ns, 600.0);
  EXPECT_EQ(kernel(c, "reduce_sum").launches, 1u);
  EXPECT_DOUBLE_EQ(kernel(c, "reduce_sum").total_ns, 100.0);
}

TEST(rocprof_reader, truncated_stats_fall_back_to_trace) {
  const capture c = aorta::read_rocprof_capture(fixtures / "stats_truncated");
  ASSERT_EQ(c.kernels.size(), 1u);
  EXPECT_EQ(c.kernels[0].name, sgemm);
  EXPECT_EQ(c.kernels[0].launches, 2u);
  EXPECT_DOUBLE_EQ(c.kernels[0].total_ns, 1200.0);  // 500 + 700 from the trace
  EXPECT_TRUE(has_note(c, "cut short"));
  ASSERT_EQ(c.files.size(), 1u);
  EXPECT_EQ(c.files[0].filename(), "aorta_kernel_trace.csv");
}

TEST(rocprof_reader, renamed_stats_columns_fall_back_to_trace) {
  const capture c = aorta::read_rocprof_capture(fixtures / "stats_renamed");
  ASSERT_EQ(c.kernels.size(), 1u);
  EXPECT_EQ(c.kernels[0].launches, 2u);
  EXPECT_DOUBLE_EQ(c.kernels[0].total_ns, 1200.0);
  EXPECT_TRUE(has_note(c, "header lacks column(s) Name, TotalDurationNs"));
}

TEST(rocprof_reader, calls_that_are_not_whole_counts_make_the_count_unknown) {
  const capture c = aorta::read_rocprof_capture(fixtures / "calls_edge");
  // The row with an empty name is dropped (a bad duration fails the read:
  // csv_bad_duration_test.cpp).
  ASSERT_EQ(c.kernels.size(), 7u);
  for (const char* unknown :
       {"calls_nan", "calls_negative", "calls_fractional", "calls_empty", "calls_inf"}) {
    EXPECT_FALSE(kernel(c, unknown).launches.has_value()) << unknown;
  }
  EXPECT_EQ(kernel(c, "calls_three_point_zero").launches, 3u);
  EXPECT_EQ(kernel(c, "calls_zero").launches, 0u);
  EXPECT_DOUBLE_EQ(kernel(c, "calls_fractional").total_ns, 3000.0);  // timing kept
  EXPECT_EQ(c.kernels.front().name, "calls_inf");                    // 7000 ns, the largest
  EXPECT_TRUE(has_note(c, "1 of 8 rows dropped: empty Name"));
  EXPECT_TRUE(has_note(c, "5 of 8 rows kept with an unknown launch count"));
}

TEST(rocprof_reader, ranks_are_summed) {
  const capture c = aorta::read_rocprof_capture(fixtures / "multi_rank");
  ASSERT_EQ(c.kernels.size(), 2u);
  EXPECT_EQ(c.kernels[0].name, sgemm);
  EXPECT_EQ(c.kernels[0].launches, 33u);
  EXPECT_DOUBLE_EQ(c.kernels[0].total_ns, 639404.0);
  EXPECT_EQ(c.kernels[1].launches, 1u);
  EXPECT_EQ(c.files.size(), 2u);
}

TEST(rocprof_reader, header_only_files_give_an_empty_capture_with_notes) {
  const capture c = aorta::read_rocprof_capture(fixtures / "header_only");
  EXPECT_TRUE(c.empty());
  EXPECT_TRUE(c.files.empty());
  EXPECT_EQ(std::count_if(c.notes.begin(), c.notes.end(),
                          [](const std::string& n) { return n.find("header only") != n.npos; }),
            2);
}

TEST(rocprof_reader, garbage_files_give_an_empty_capture_with_notes) {
  const capture c = aorta::read_rocprof_capture(fixtures / "garbage");
  EXPECT_TRUE(c.empty());
  EXPECT_TRUE(has_note(c, "aorta_kernel_stats.csv: header lacks column(s) Name, TotalDurationNs"));
  EXPECT_TRUE(has_note(c, "aorta_kernel_trace.csv: header lacks column(s) Kernel_Name, "
                          "Start_Timestamp, End_Timestamp"));
}

TEST(rocprof_reader, results_json_joins_dispatches_with_kernel_symbols) {
  const capture c = aorta::read_rocprof_capture(fixtures / "results_json");
  ASSERT_EQ(c.kernels.size(), 2u);
  EXPECT_EQ(c.kernels[0].name, sgemm);  // formatted_kernel_name
  EXPECT_EQ(c.kernels[0].launches, 2u);
  EXPECT_DOUBLE_EQ(c.kernels[0].total_ns, 1000.0);  // 600 + 400
  EXPECT_EQ(c.kernels[1].name, "reduce_sum");
  EXPECT_DOUBLE_EQ(c.kernels[1].total_ns, 50.0);
  EXPECT_TRUE(has_note(c, "1 of 4 dispatches dropped: kernel_id not in kernel_symbols"));
}

TEST(rocprof_reader, missing_directory_is_an_empty_capture_with_a_note) {
  const capture c = aorta::read_rocprof_capture(fixtures / "no_such_dir");
  EXPECT_TRUE(c.empty());
  EXPECT_TRUE(c.artifact_dir.is_absolute());
  EXPECT_TRUE(has_note(c, "no rocprofv3 output directory"));
}

class rocprof_reader_tmp : public ::testing::Test {
protected:
  void SetUp() override {
    m_dir = fs::temp_directory_path() /
            (std::string("aorta_rocprof_") +
             ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(m_dir);
    fs::create_directories(m_dir);
  }
  void TearDown() override { fs::remove_all(m_dir); }
  void write(const std::string& name, const std::string& text) {
    std::ofstream(m_dir / name, std::ios::binary) << text;
  }
  fs::path m_dir;
};

TEST_F(rocprof_reader_tmp, overflowing_total_is_a_capture_error) {
  write("aorta_kernel_stats.csv", "Name,Calls,TotalDurationNs\nk,1,1e308\nk,1,1e308\n");
  EXPECT_THROW((void)aorta::read_rocprof_capture(m_dir), aorta::capture_error);
}

TEST_F(rocprof_reader_tmp, invalid_json_is_a_capture_error) {
  write("1_results.json", "{\"rocprofiler-sdk-tool\": [ {");
  EXPECT_THROW((void)aorta::read_rocprof_capture(m_dir), aorta::capture_error);
}

// A dispatch of a named kernel whose duration is negative or unreadable fails the read, naming the
// record and the kernel, as the CSV readers and rocpd do (issue 39, item 5); it was dropped.
TEST_F(rocprof_reader_tmp, a_dispatch_without_a_duration_is_a_capture_error_naming_the_kernel) {
  for (const char* times : {R"("start_timestamp": 50, "end_timestamp": 35)",
                            R"("start_timestamp": 10, "end_timestamp": -1)",
                            R"("start_timestamp": 10, "end_timestamp": 1.5)",
                            R"("start_timestamp": 10)"}) {
    write("1_results.json",
          std::string(R"({"rocprofiler-sdk-tool": {"kernel_symbols": {"5": {"kernel_name": "k5"}},
            "buffer_records": {"kernel_dispatch": [
              {"start_timestamp": 0, "end_timestamp": 5, "dispatch_info": {"kernel_id": 5}},
              {)") + times + R"(, "dispatch_info": {"kernel_id": 5}}]}}})");
    std::string error;
    try {
      (void)aorta::read_rocprof_capture(m_dir);
    } catch (const aorta::capture_error& e) {
      error = e.what();
    }
    EXPECT_NE(error.find("1_results.json: kernel_dispatch record 1: kernel 'k5': "
                         "start_timestamp/end_timestamp missing"),
              std::string::npos)
        << times << ": " << error;
  }
}

TEST_F(rocprof_reader_tmp, kernel_symbols_keyed_by_id_are_accepted) {
  write("1_results.json",
        R"({"rocprofiler-sdk-tool": {"kernel_symbols": {"5": {"kernel_name": "k5"}},
            "buffer_records": {"kernel_dispatch": [
              {"start_timestamp": 10, "end_timestamp": 35, "dispatch_info": {"kernel_id": 5}}]}}})");
  const capture c = aorta::read_rocprof_capture(m_dir);
  ASSERT_EQ(c.kernels.size(), 1u);
  EXPECT_EQ(c.kernels[0].name, "k5");
  EXPECT_EQ(c.kernels[0].launches, 1u);
  EXPECT_DOUBLE_EQ(c.kernels[0].total_ns, 25.0);
}

// rocpd is read since issue 12 (rocpd_reader_test.cpp); a file that is not SQLite is an error
// naming it and the fix, no longer an empty capture with a note.
TEST_F(rocprof_reader_tmp, only_a_broken_rocpd_database_is_an_error_naming_it) {
  write("1234_results.db", "SQLite format 3");
  try {
    (void)aorta::read_rocprof_capture(m_dir);
    FAIL() << "expected a capture_error";
  } catch (const aorta::capture_error& e) {
    EXPECT_NE(std::string(e.what()).find("1234_results.db: rocpd database"), std::string::npos)
        << e.what();
    EXPECT_NE(std::string(e.what()).find("output_format: csv"), std::string::npos) << e.what();
  }
}

TEST_F(rocprof_reader_tmp, stats_with_data_win_over_json) {
  write("a_kernel_stats.csv", "Name,Calls,TotalDurationNs\nfrom_stats,2,7\n");
  write("a_results.json", "not even json");  // never opened: the stats gave data
  const capture c = aorta::read_rocprof_capture(m_dir);
  ASSERT_EQ(c.kernels.size(), 1u);
  EXPECT_EQ(c.kernels[0].name, "from_stats");
}

}  // namespace
