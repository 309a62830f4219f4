// The Google Benchmark JSON reader on real output of the Debian package (tests/fixtures/gbench)
// and on hostile variants of it.
#include "aorta/error.hpp"
#include "aorta/metrics.hpp"
#include "captures/gbench_reader.hpp"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>

namespace {

namespace fs = std::filesystem;
using aorta::capture;
using json = nlohmann::json;

const fs::path fixtures = fs::path(AORTA_FIXTURES_DIR) / "gbench";

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

class scratch_file {
public:
  explicit scratch_file(const std::string& text)
      : m_path(fs::temp_directory_path() / ("aorta-gbench-" + std::to_string(::getpid()) + "-" +
                                            std::to_string(++count) + ".json")) {
    std::ofstream(m_path) << text;
  }
  ~scratch_file() { fs::remove(m_path); }
  scratch_file(const scratch_file&) = delete;
  scratch_file& operator=(const scratch_file&) = delete;
  [[nodiscard]] const fs::path& path() const { return m_path; }

private:
  static inline int count = 0;
  fs::path m_path;
};

// The message of the capture_error reading `text` throws, or "" when it reads.
std::string read_error(const std::string& text) {
  const scratch_file file(text);
  try {
    (void)aorta::read_gbench_capture(file.path());
  } catch (const aorta::capture_error& e) {
    return e.what();
  }
  return "";
}

std::string read_error_of(const fs::path& path) {
  try {
    (void)aorta::read_gbench_capture(path);
  } catch (const aorta::capture_error& e) {
    return e.what();
  }
  return "";
}

// plain.json with its first benchmark's `key` set to `value`.
std::string plain_with(const std::string& key, const json& value) {
  json doc = fixture("plain.json");
  doc["benchmarks"][0][key] = value;
  return doc.dump();
}

TEST(gbench_reader, each_benchmark_is_a_kernel_with_its_time_per_iteration) {
  const json doc = fixture("plain.json");
  const capture c = aorta::read_gbench_capture(fixtures / "plain.json");
  EXPECT_EQ(c.collector, "gbench");
  ASSERT_EQ(c.kernels.size(), doc["benchmarks"].size());
  for (const auto& run : doc["benchmarks"]) {
    const auto* kernel = kernel_named(c, run["name"].get<std::string>());
    ASSERT_NE(kernel, nullptr) << run["name"];
    EXPECT_EQ(kernel->launches, 1u);
    EXPECT_DOUBLE_EQ(kernel->total_ns, run["real_time"].get<double>());  // time_unit ns
    const std::string name = run["name"];
    EXPECT_DOUBLE_EQ(*metric(c, name + ".cpu_time_ns"), run["cpu_time"].get<double>());
    EXPECT_DOUBLE_EQ(*metric(c, name + ".iterations"), run["iterations"].get<double>());
  }
  // User counters and rates, under the benchmark's name.
  const auto& copy = doc["benchmarks"][2];
  ASSERT_EQ(copy["name"], "BM_Copy/65536");
  EXPECT_DOUBLE_EQ(*metric(c, "BM_Copy/65536.bytes_per_second"),
                   copy["bytes_per_second"].get<double>());
  EXPECT_DOUBLE_EQ(*metric(c, "BM_Copy/65536.elements"), 65536.0);
  EXPECT_FALSE(metric(c, "BM_Copy/65536.family_index"));
  EXPECT_EQ(c.reported_errors, 0u);
  EXPECT_TRUE(c.findings.empty());
  EXPECT_TRUE(std::is_sorted(c.kernels.begin(), c.kernels.end(),
                             [](const auto& a, const auto& b) { return a.total_ns > b.total_ns; }));
}

TEST(gbench_reader, repetitions_give_the_median_and_aggregates_are_skipped) {
  const json doc = fixture("repetitions.json");
  const capture c = aorta::read_gbench_capture(fixtures / "repetitions.json");
  ASSERT_EQ(c.kernels.size(), 3u);  // no BM_Sort/1024_mean etc.
  std::vector<double> times;
  for (const auto& run : doc["benchmarks"]) {
    if (run["name"] == "BM_Sort/1024" && run["run_type"] == "iteration")
      times.push_back(run["real_time"].get<double>());
  }
  ASSERT_EQ(times.size(), 3u);
  std::sort(times.begin(), times.end());
  const auto* sort = kernel_named(c, "BM_Sort/1024");
  ASSERT_NE(sort, nullptr);
  EXPECT_EQ(sort->launches, 3u);
  EXPECT_DOUBLE_EQ(sort->total_ns, times[1]);
  EXPECT_TRUE(std::any_of(c.notes.begin(), c.notes.end(), [](const std::string& n) {
    return n.find("skipped 12 aggregate rows") != std::string::npos;
  }));
}

TEST(gbench_reader, an_error_of_a_benchmark_is_a_finding_naming_it) {
  const capture c = aorta::read_gbench_capture(fixtures / "skip-with-error.json");
  ASSERT_EQ(c.findings.size(), 1u);
  EXPECT_EQ(c.findings[0].kernel, "BM_Failing");
  EXPECT_EQ(c.findings[0].detail, "planted failure: the input file is missing");
  EXPECT_EQ(c.reported_errors, 1u);
  EXPECT_EQ(kernel_named(c, "BM_Failing"), nullptr);  // no time, not a 0 ns one
  EXPECT_NE(kernel_named(c, "BM_Sort/1024"), nullptr);
}

TEST(gbench_reader, metrics_address_benchmarks_by_name) {
  const aorta::metric_set m =
      aorta::compute_metrics(aorta::read_gbench_capture(fixtures / "plain.json"));
  EXPECT_TRUE(m.values.contains("gbench.BM_Sort/1024.cpu_time_ns"));
  EXPECT_TRUE(m.values.contains("gbench.BM_Copy/65536.bytes_per_second"));
  EXPECT_EQ(std::get<std::int64_t>(m.values.at("gbench_error_count")), 0);
}

TEST(gbench_reader, time_units_convert_to_ns) {
  json doc = fixture("plain.json");
  doc["benchmarks"][0]["time_unit"] = "ms";
  doc["benchmarks"][0]["real_time"] = 1.5;
  const scratch_file file(doc.dump());
  const capture c = aorta::read_gbench_capture(file.path());
  EXPECT_DOUBLE_EQ(kernel_named(c, "BM_Sort/1024")->total_ns, 1.5e6);
}

TEST(gbench_reader, hostile_values_name_the_file_and_benchmark) {
  EXPECT_NE(read_error(plain_with("real_time", -1.0)).find("'BM_Sort/1024': \"real_time\""),
            std::string::npos);
  EXPECT_NE(read_error(plain_with("real_time", "fast")).find("not a number"), std::string::npos);
  EXPECT_NE(read_error(plain_with("time_unit", "ps")).find("\"time_unit\" is 'ps'"),
            std::string::npos);
  EXPECT_NE(read_error(plain_with("run_type", "warmup")).find("\"run_type\" is 'warmup'"),
            std::string::npos);
  EXPECT_NE(read_error(plain_with("error_occurred", "yes")).find("error_occurred"),
            std::string::npos);
  EXPECT_NE(read_error(plain_with("name", 7)).find("benchmarks[0] has no \"name\""),
            std::string::npos);
  // 1e300 s is finite, in ns it is not.
  json seconds = fixture("plain.json");
  seconds["benchmarks"][0]["time_unit"] = "s";
  seconds["benchmarks"][0]["real_time"] = 1e300;
  EXPECT_NE(read_error(seconds.dump()).find("overflows"), std::string::npos);
  // JSON has no NaN, and a number beyond double is refused by the parser: both name the file.
  const std::string nan = R"({"context": {}, "benchmarks": [{"name": "x", "real_time": NaN}]})";
  EXPECT_NE(read_error(nan).find("is not valid JSON"), std::string::npos);
  const std::string huge = R"({"context": {}, "benchmarks": [{"name": "x", "real_time": 1e400}]})";
  EXPECT_NE(read_error(huge).find("is not valid JSON"), std::string::npos);
  EXPECT_NE(read_error(std::string(100000, '[') + std::string(100000, ']')).find("nested deeper"),
            std::string::npos);
}

TEST(gbench_reader, another_tool_or_a_newer_format_is_refused) {
  EXPECT_NE(read_error(R"({"traceEvents": []})").find("is not Google Benchmark JSON"),
            std::string::npos);
  EXPECT_NE(read_error(R"([1, 2])").find("is not Google Benchmark JSON"), std::string::npos);
  json newer = fixture("plain.json");
  newer["context"]["json_schema_version"] = 2;
  EXPECT_NE(read_error(newer.dump()).find("json_schema_version is 2"), std::string::npos);
  // 2^32 + 1 is 1 once cut to an int: still a version aorta does not know.
  newer["context"]["json_schema_version"] = 4294967297LL;
  EXPECT_NE(read_error(newer.dump()).find("json_schema_version is 4294967297"), std::string::npos);
  newer["context"]["json_schema_version"] = 1.5;
  EXPECT_NE(read_error(newer.dump()).find("json_schema_version is 1.5"), std::string::npos);
  newer["context"]["json_schema_version"] = 1;
  EXPECT_EQ(read_error(newer.dump()), "");
}

// Google Benchmark 1.8 writes state.SkipWithMessage as skipped/skip_message; a string field
// (SetLabel) is kept as text.
TEST(gbench_reader, skipped_runs_are_noted_and_labels_kept_as_text) {
  json doc = fixture("plain.json");
  doc["benchmarks"][0]["skipped"] = true;
  doc["benchmarks"][0]["skip_message"] = "needs AVX-512";
  doc["benchmarks"][1]["label"] = "sorted ascending";
  const scratch_file file(doc.dump());
  const capture c = aorta::read_gbench_capture(file.path());
  EXPECT_EQ(kernel_named(c, "BM_Sort/1024"), nullptr);
  EXPECT_TRUE(std::any_of(c.notes.begin(), c.notes.end(), [](const std::string& n) {
    return n.find("'BM_Sort/1024' skipped itself: needs AVX-512") != std::string::npos;
  }));
  ASSERT_EQ(c.text_metrics.size(), 1u);
  EXPECT_EQ(c.text_metrics[0].path, std::vector<std::string>{"BM_Sort/16384"});
  EXPECT_EQ(c.text_metrics[0].key, "label");
  EXPECT_EQ(c.text_metrics[0].text, "sorted ascending");
}

TEST(gbench_reader, no_run_at_all_is_an_empty_capture) {
  const scratch_file file(R"({"context": {"num_cpus": 1}, "benchmarks": []})");
  EXPECT_TRUE(aorta::read_gbench_capture(file.path()).empty());
}

// The bounded input layer: a file past the JSON size cap is refused naming the cap, before it is
// read whole (a plain std::ifstream read any size into memory).
TEST(gbench_reader, a_file_past_the_size_cap_is_refused_naming_the_cap) {
  const scratch_file file("");
  fs::resize_file(file.path(), (std::uint64_t{64} << 20) + 1);  // sparse: no 64 MiB written
  const std::string message = read_error_of(file.path());
  EXPECT_NE(message.find("max_json_file_bytes"), std::string::npos) << message;
}

// What Google Benchmark 1.7.1 leaves behind when --benchmark_filter matches nothing (seen with the
// Debian package: "Failed to match any benchmarks against regex", exit 0, a 0-byte out file).
TEST(gbench_reader, an_empty_file_is_an_empty_capture_that_names_the_filter) {
  const scratch_file file("");
  const capture c = aorta::read_gbench_capture(file.path());
  EXPECT_TRUE(c.empty());
  ASSERT_FALSE(c.notes.empty());
  EXPECT_NE(c.notes.back().find("--benchmark_filter matches no benchmark"), std::string::npos)
      << c.notes.back();
}

}  // namespace

namespace {

// A rate or per-iteration time does not add up over ranks: the lowest rank's value stands.
TEST(gbench_reader, the_sum_over_ranks_keeps_the_first_ranks_numbers) {
  capture rank0 = aorta::read_gbench_capture(fixtures / "plain.json");
  capture rank1 = rank0;
  rank0.rank = 0;
  rank1.rank = 1;
  rank1.numeric_metrics.front().value += 1.0;
  const capture sum = aorta::sum_over_ranks({&rank0, &rank1});
  ASSERT_EQ(sum.numeric_metrics.size(), rank0.numeric_metrics.size());
  EXPECT_DOUBLE_EQ(sum.numeric_metrics.front().value, rank0.numeric_metrics.front().value);
  EXPECT_TRUE(std::any_of(sum.notes.begin(), sum.notes.end(), [&](const std::string& n) {
    return n.find("rank 1: metric '" + rank0.numeric_metrics.front().key) != std::string::npos;
  }));
}

}  // namespace

namespace {

// Issue 39, item 4: two repetitions near 1.6e308 ns had a median of +inf ("actual inf", PASS of
// `time_ms(BM_a) > 1`); the midpoint that overflows is a read error naming the file and benchmark.
TEST(gbench_reader, a_median_that_overflows_is_an_error_naming_the_file_and_benchmark) {
  json doc = fixture("plain.json");
  json first = doc["benchmarks"][0];
  first["name"] = "BM_a";
  first["run_name"] = "BM_a";
  first["time_unit"] = "ns";
  json second = first;
  first["real_time"] = 1.6e308;
  second["real_time"] = 1.7e308;
  second["repetition_index"] = 1;
  doc["benchmarks"] = json::array({first, second});
  const scratch_file file(doc.dump());
  std::string error;
  try {
    (void)aorta::read_gbench_capture(file.path());
  } catch (const aorta::capture_error& e) {
    error = e.what();
  }
  EXPECT_NE(error.find(file.path().string() + ": benchmark 'BM_a': real_time: the median of 2 "
                                              "values is not finite"),
            std::string::npos)
      << error;
  // One repetition that large is a finite value, as before.
  doc["benchmarks"] = json::array({first});
  const scratch_file single(doc.dump());
  EXPECT_DOUBLE_EQ(kernel_named(aorta::read_gbench_capture(single.path()), "BM_a")->total_ns,
                   1.6e308);
}

}  // namespace
