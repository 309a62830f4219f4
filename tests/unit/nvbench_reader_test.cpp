// The nvbench JSON reader on real nvbench output (tests/fixtures/nvbench: the file NVIDIA ships in
// the cuda-bench 0.3.0 wheel) and on hostile variants of it.
#include "aorta/error.hpp"
#include "aorta/metrics.hpp"
#include "captures/nvbench_reader.hpp"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>

namespace {

namespace fs = std::filesystem;
using aorta::capture;
using json = nlohmann::json;

const fs::path fixtures = fs::path(AORTA_FIXTURES_DIR) / "nvbench";
const std::string shipped = "cuda-bench-0.3.0-test_ref.json";

json fixture(const std::string& name) {
  std::ifstream in(fixtures / name);
  return json::parse(in);
}

const aorta::kernel_stat* kernel_named(const capture& c, const std::string& name) {
  const auto found = std::find_if(c.kernels.begin(), c.kernels.end(),
                                  [&](const auto& k) { return k.name == name; });
  return found == c.kernels.end() ? nullptr : &*found;
}

std::optional<double> metric(const capture& c, const std::string& key) {
  for (const auto& m : c.numeric_metrics) {
    if (m.key == key) return m.value;
  }
  return std::nullopt;
}

// The summary `tag` of a state as the file writes it (a string), parsed.
double summary_value(const json& state, const std::string& tag) {
  for (const auto& s : state["summaries"]) {
    if (s["tag"] == tag) return std::stod(s["data"][0]["value"].get<std::string>());
  }
  ADD_FAILURE() << "no summary " << tag;
  return 0.0;
}

class scratch_dir {
public:
  scratch_dir()
      : m_path(fs::temp_directory_path() /
               ("aorta-nvbench-" + std::to_string(::getpid()) + "-" + std::to_string(++count))) {
    fs::create_directories(m_path);
  }
  ~scratch_dir() { fs::remove_all(m_path); }
  scratch_dir(const scratch_dir&) = delete;
  scratch_dir& operator=(const scratch_dir&) = delete;
  [[nodiscard]] fs::path write(const std::string& name, const std::string& text) const {
    std::ofstream(m_path / name) << text;
    return m_path / name;
  }
  [[nodiscard]] const fs::path& path() const { return m_path; }

private:
  static inline int count = 0;
  fs::path m_path;
};

// The shipped file with `change` applied to its parsed copy.
template <typename Change>
std::string shipped_with(Change change) {
  json doc = fixture(shipped);
  change(doc);
  return doc.dump();
}

TEST(nvbench_reader, each_state_is_a_row_with_its_cold_gpu_time) {
  const json doc = fixture(shipped);
  const capture c = aorta::read_nvbench_capture(fixtures / shipped);
  EXPECT_EQ(c.collector, "nvbench");
  // The file ran on two devices, so every name carries its device.
  const json& state = doc["benchmarks"][2]["states"][0];
  ASSERT_EQ(state["name"], "Device=0 BlockSize=2^6 NumBlocks=2^6");
  const auto* row = kernel_named(c, "copy_sweep_grid_shape/Device:0/BlockSize:64/NumBlocks:64");
  ASSERT_NE(row, nullptr);
  EXPECT_EQ(row->launches, 1U);
  EXPECT_DOUBLE_EQ(row->total_ns, summary_value(state, "nv/cold/time/gpu/mean") * 1e9);
  const std::string name = row->name;
  EXPECT_DOUBLE_EQ(*metric(c, name + ".cpu_time_ns"),
                   summary_value(state, "nv/cold/time/cpu/mean") * 1e9);
  EXPECT_DOUBLE_EQ(*metric(c, name + ".gpu_noise"),
                   summary_value(state, "nv/cold/time/gpu/stdev/relative"));
  EXPECT_DOUBLE_EQ(*metric(c, name + ".samples"), summary_value(state, "nv/cold/sample_size"));
  EXPECT_DOUBLE_EQ(*metric(c, name + ".batch_gpu_time_ns"),
                   summary_value(state, "nv/batch/time/gpu/mean") * 1e9);
  EXPECT_DOUBLE_EQ(*metric(c, name + ".bytes_per_second"),
                   summary_value(state, "nv/cold/bw/global/bytes_per_second"));
  EXPECT_FALSE(metric(c, name + ".nv/cold/walltime").has_value());
  EXPECT_NE(kernel_named(c, "simple/Device:1"), nullptr);
  EXPECT_NE(kernel_named(c, "copy_type_sweep/Device:0/T:U8"), nullptr);
  EXPECT_EQ(c.reported_errors, 0U);
}

TEST(nvbench_reader, every_measured_state_is_a_row_and_skipped_ones_are_notes) {
  const json doc = fixture(shipped);
  std::size_t measured = 0;
  std::size_t skipped = 0;
  for (const auto& benchmark : doc["benchmarks"]) {
    for (const auto& state : benchmark["states"]) ++(state["is_skipped"] ? skipped : measured);
  }
  const capture c = aorta::read_nvbench_capture(fixtures / shipped);
  EXPECT_EQ(c.kernels.size(), measured);
  const auto skip_notes = std::count_if(c.notes.begin(), c.notes.end(), [](const auto& n) {
    return n.find("nvbench skipped") != std::string::npos;
  });
  EXPECT_EQ(static_cast<std::size_t>(skip_notes), skipped);
  EXPECT_TRUE(std::any_of(c.notes.begin(), c.notes.end(), [](const auto& n) {
    return n.find("nvbench skipped 'copy_type_conversion_sweep/Device:0/In:I8/Out:I8': Not a "
                  "conversion: InputType == OutputType.") != std::string::npos;
  }));
  EXPECT_TRUE(c.findings.empty());
  // Other numeric summaries keep their tag.
  EXPECT_TRUE(metric(c, "copy_type_conversion_sweep/Device:0/In:I8/Out:I16.nv/gmem/reads/InSize"));
}

TEST(nvbench_reader, one_device_leaves_the_device_out_of_the_name) {
  const std::string text = shipped_with([](json& doc) {
    for (auto& benchmark : doc["benchmarks"]) {
      json kept = json::array();
      for (auto& state : benchmark["states"]) {
        if (state["device"] == 0) kept.push_back(state);
      }
      benchmark["states"] = kept;
    }
  });
  const scratch_dir dir;
  const capture c = aorta::read_nvbench_capture(dir.write("one.json", text));
  EXPECT_NE(kernel_named(c, "simple"), nullptr);
  EXPECT_NE(kernel_named(c, "copy_sweep_grid_shape/BlockSize:64/NumBlocks:64"), nullptr);
}

TEST(nvbench_reader, a_state_that_threw_is_a_finding_not_a_row) {
  const std::string text = shipped_with([](json& doc) {
    json& state = doc["benchmarks"][0]["states"][0];
    state["is_skipped"] = true;
    state["skip_reason"] = "Unexpected error: CUDA error: an illegal memory access";
    state["summaries"] = nullptr;
  });
  const scratch_dir dir;
  const capture c = aorta::read_nvbench_capture(dir.write("threw.json", text));
  ASSERT_EQ(c.findings.size(), 1U);
  EXPECT_EQ(c.findings[0].kernel, "simple/Device:0");
  EXPECT_EQ(c.findings[0].kind, "benchmark error");
  EXPECT_NE(c.findings[0].detail.find("illegal memory access"), std::string::npos);
  EXPECT_EQ(c.reported_errors, 1U);
  EXPECT_EQ(kernel_named(c, "simple/Device:0"), nullptr);
}

TEST(nvbench_reader, a_directory_of_runs_gives_each_state_the_median_of_its_files) {
  const json doc = fixture(shipped);
  const scratch_dir dir;
  const double base = summary_value(doc["benchmarks"][0]["states"][0], "nv/cold/time/gpu/mean");
  for (const double factor : {1.0, 3.0, 1.5}) {
    json copy = doc;
    for (auto& s : copy["benchmarks"][0]["states"][0]["summaries"]) {
      if (s["tag"] == "nv/cold/time/gpu/mean") {
        s["data"][0]["value"] = fmt::format("{}", base * factor);
      }
    }
    (void)dir.write("run" + std::to_string(static_cast<int>(factor * 10)) + ".json", copy.dump());
  }
  const capture c = aorta::read_nvbench_capture(dir.path());
  const auto* row = kernel_named(c, "simple/Device:0");
  ASSERT_NE(row, nullptr);
  EXPECT_EQ(row->launches, 3U);
  EXPECT_NEAR(row->total_ns, base * 1.5 * 1e9, base * 1e-3);
}

TEST(nvbench_reader, the_h200_capture_has_one_row_per_n_with_batch_and_bandwidth) {
  const json doc = fixture("h200-gemm.json");
  const capture c = aorta::read_nvbench_capture(fixtures / "h200-gemm.json");
  ASSERT_EQ(c.kernels.size(), 2U);
  // One device: no device in the names; the larger N is slower, so it sorts first.
  EXPECT_EQ(c.kernels[0].name, "gemm/N:2048");
  EXPECT_EQ(c.kernels[1].name, "gemm/N:1024");
  const json& state = doc["benchmarks"][0]["states"][1];
  EXPECT_DOUBLE_EQ(c.kernels[0].total_ns, summary_value(state, "nv/cold/time/gpu/mean") * 1e9);
  EXPECT_DOUBLE_EQ(*metric(c, "gemm/N:2048.batch_gpu_time_ns"),
                   summary_value(state, "nv/batch/time/gpu/mean") * 1e9);
  EXPECT_DOUBLE_EQ(*metric(c, "gemm/N:2048.items_per_second"),
                   summary_value(state, "nv/cold/bw/item_rate"));
  EXPECT_TRUE(std::any_of(c.notes.begin(), c.notes.end(), [](const auto& n) {
    return n.find("written by nvbench 0.1.0") != std::string::npos;
  }));
  EXPECT_EQ(c.reported_errors, 0U);
}

TEST(nvbench_reader, the_h200_states_that_threw_are_findings_with_nvbenchs_reason) {
  const capture c = aorta::read_nvbench_capture(fixtures / "h200-gemm-error.json");
  EXPECT_TRUE(c.kernels.empty());
  ASSERT_EQ(c.findings.size(), 2U);
  EXPECT_EQ(c.findings[0].kernel, "gemm/N:1024");
  EXPECT_EQ(c.findings[0].detail,
            "Unexpected error: AORTA_NVBENCH_EXTRA_PERCENT='ten': expected a whole percentage "
            "from 0 to 1000");
  EXPECT_EQ(c.reported_errors, 2U);
}

TEST(nvbench_reader, metrics_reach_the_checks_under_the_collector_name) {
  const auto metrics = aorta::compute_metrics(aorta::read_nvbench_capture(fixtures / shipped));
  EXPECT_TRUE(metrics.values.contains("nvbench.simple/Device:0.gpu_noise"));
  EXPECT_TRUE(metrics.values.contains("nvbench.copy_type_sweep/Device:1/T:F64.bytes_per_second"));
}

}  // namespace

namespace {

// Issue 39, item 4: the median over files of two cold GPU times near 1.6e308 ns overflowed to +inf.
TEST(nvbench_reader, a_median_over_files_that_overflows_is_an_error_naming_the_state) {
  const json doc = fixture(shipped);
  const scratch_dir dir;
  for (const char* value : {"1.6e299", "1.7e299"}) {  // seconds: 1.6e308 ns and more
    json copy = doc;
    for (auto& s : copy["benchmarks"][0]["states"][0]["summaries"]) {
      if (s["tag"] == "nv/cold/time/gpu/mean") s["data"][0]["value"] = value;
    }
    (void)dir.write(std::string("run") + value + ".json", copy.dump());
  }
  std::string error;
  try {
    (void)aorta::read_nvbench_capture(dir.path());
  } catch (const aorta::capture_error& e) {
    error = e.what();
  }
  EXPECT_NE(error.find("state 'simple/Device:0': nv/cold/time/gpu/mean: the median of 2 values is "
                       "not finite"),
            std::string::npos)
      << error;
  EXPECT_NE(error.find(dir.path().string()), std::string::npos) << error;
}

}  // namespace
