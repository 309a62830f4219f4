// nvbench's per-sample times (`--jsonbin`): the sample file is read, the warm-up rule applied,
// and every way the file can be missing, damaged or placed outside the capture is an error naming
// the JSON file and the state. The captures are hand-made from the published format
// (NVIDIA/nvbench, nvbench/json_printer.cu, write_jsonbin_sidecar: a summary tagged
// "nv/json/bin:nv/cold/sample_times" with "filename" relative to the JSON file's directory and
// "size", the file little-endian float32 seconds) on top of the JSON file NVIDIA ships.
#include "aorta/error.hpp"
#include "captures/nvbench_reader.hpp"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <bit>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <limits>
#include <numeric>
#include <string>
#include <unistd.h>
#include <vector>

namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;

const fs::path shipped =
    fs::path(AORTA_FIXTURES_DIR) / "nvbench" / "cuda-bench-0.3.0-test_ref.json";
const std::string first_state = "simple/Device:0";

json bin_summary(const json& filename, const json& size) {
  json data = json::array();
  if (!filename.is_null())
    data.push_back({{"name", "filename"}, {"type", "string"}, {"value", filename}});
  if (!size.is_null()) data.push_back({{"name", "size"}, {"type", "int64"}, {"value", size}});
  data.push_back({{"name", "hide"}, {"type", "string"}, {"value", "Not needed in table."}});
  return {{"tag", "nv/json/bin:nv/cold/sample_times"},
          {"name", "Sample Times File"},
          {"hint", "file/sample_times"},
          {"data", data}};
}

std::string float32_le(const std::vector<float>& seconds) {
  std::string bytes;
  for (const float s : seconds) {
    const auto bits = std::bit_cast<std::uint32_t>(s);
    for (int b = 0; b < 4; ++b) bytes.push_back(static_cast<char>((bits >> (8 * b)) & 0xffU));
  }
  return bytes;
}

// A capture directory: run.json (the shipped file, its first state naming a sample file) and,
// unless `bytes` is null, the sample file run.json-bin/0.bin.
class capture_dir {
public:
  capture_dir(const json& summary, const std::string* bytes)
      : m_dir(fs::temp_directory_path() / ("aorta-nvbench-samples-" + std::to_string(::getpid()) +
                                           "-" + std::to_string(++count))) {
    fs::create_directories(m_dir / "run.json-bin");
    std::ifstream in(shipped);
    json doc = json::parse(in);
    doc["benchmarks"][0]["states"][0]["summaries"].push_back(summary);
    std::ofstream(m_dir / "run.json") << doc.dump();
    if (bytes) std::ofstream(m_dir / "run.json-bin" / "0.bin", std::ios::binary) << *bytes;
  }
  ~capture_dir() { fs::remove_all(m_dir); }
  capture_dir(const capture_dir&) = delete;
  capture_dir& operator=(const capture_dir&) = delete;
  [[nodiscard]] const fs::path& path() const { return m_dir; }

private:
  static inline int count = 0;
  fs::path m_dir;
};

double first_state_ns(const aorta::capture& c) {
  const auto found = std::find_if(c.kernels.begin(), c.kernels.end(),
                                  [](const auto& k) { return k.name == first_state; });
  EXPECT_NE(found, c.kernels.end());
  return found == c.kernels.end() ? -1.0 : found->total_ns;
}

// The capture_error message reading `dir` throws ("" when it reads); it names the JSON file and
// the state.
std::string read_error(const capture_dir& dir) {
  try {
    (void)aorta::read_nvbench_capture(dir.path());
  } catch (const aorta::capture_error& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find((dir.path() / "run.json").string()), std::string::npos) << message;
    EXPECT_NE(message.find(first_state), std::string::npos) << message;
    return message;
  }
  return "";
}

// 16 samples of a 28 us kernel whose first two took 10x and 5x: the rule (3 in a row within
// 1.25x of the second half's median) ends warm-up at sample 3.
std::vector<float> warm_series() {
  std::vector<float> s{280e-6F, 140e-6F};
  for (int i = 0; i < 14; ++i) s.push_back(28e-6F + static_cast<float>(i % 3) * 0.5e-6F);
  return s;
}

TEST(nvbench_samples, the_time_is_the_mean_of_the_samples_after_warm_up) {
  const auto samples = warm_series();
  const std::string bytes = float32_le(samples);
  const capture_dir dir(bin_summary("run.json-bin/0.bin", "16"), &bytes);
  const aorta::capture c = aorta::read_nvbench_capture(dir.path());
  double steady = 0.0;
  for (std::size_t i = 2; i < samples.size(); ++i) steady += static_cast<double>(samples[i]) * 1e9;
  steady /= 14.0;
  EXPECT_NEAR(first_state_ns(c), steady, 1e-6);
  const bool noted = std::any_of(c.notes.begin(), c.notes.end(), [](const std::string& n) {
    return n.find("'simple/Device:0': the first 2 of its 16 samples are warm-up") !=
           std::string::npos;
  });
  EXPECT_TRUE(noted);
}

TEST(nvbench_samples, fewer_than_eight_samples_keep_every_sample) {
  const std::vector<float> samples{280e-6F, 28e-6F, 29e-6F, 28e-6F, 28e-6F};
  const std::string bytes = float32_le(samples);
  const capture_dir dir(bin_summary("run.json-bin/0.bin", "5"), &bytes);
  const double all = std::accumulate(samples.begin(), samples.end(), 0.0, [](double a, float s) {
    return a + static_cast<double>(s) * 1e9;
  });
  EXPECT_NEAR(first_state_ns(aorta::read_nvbench_capture(dir.path())), all / 5.0, 1e-6);
}

TEST(nvbench_samples, a_missing_or_damaged_sample_file_is_an_error) {
  const std::string bytes = float32_le(warm_series());
  EXPECT_NE(read_error(capture_dir(bin_summary("run.json-bin/0.bin", "16"), nullptr)).find("0.bin"),
            std::string::npos);
  EXPECT_NE(read_error(capture_dir(bin_summary("run.json-bin/0.bin", "17"), &bytes))
                .find("holds 64 bytes, but the summary declares 17"),
            std::string::npos);
  const std::string odd = bytes + "x";
  EXPECT_NE(
      read_error(capture_dir(bin_summary("run.json-bin/0.bin", "16"), &odd)).find("truncated"),
      std::string::npos);
  const std::string nan = float32_le({28e-6F, std::numeric_limits<float>::quiet_NaN()});
  EXPECT_NE(
      read_error(capture_dir(bin_summary("run.json-bin/0.bin", "2"), &nan)).find("sample 1 is nan"),
      std::string::npos);
  const std::string negative = float32_le({28e-6F, -1e-6F});
  EXPECT_NE(
      read_error(capture_dir(bin_summary("run.json-bin/0.bin", "2"), &negative)).find("not a time"),
      std::string::npos);
  EXPECT_NE(read_error(capture_dir(bin_summary(nullptr, nullptr), &bytes))
                .find("could not write the sample file"),
            std::string::npos);
  EXPECT_NE(
      read_error(capture_dir(bin_summary("run.json-bin/0.bin", "0"), &bytes)).find("\"size\" is 0"),
      std::string::npos);
  EXPECT_NE(read_error(capture_dir(bin_summary("run.json-bin/0.bin", "99999999999"), &bytes))
                .find("\"size\" is 99999999999"),
            std::string::npos);
  EXPECT_NE(read_error(capture_dir(bin_summary("run.json-bin/0.bin", "many"), &bytes))
                .find("\"size\" is 'many', not a whole number of samples (int64)"),
            std::string::npos);
  // int64's largest value: read through a double it rounded up to 2^63 and the conversion back
  // was undefined (the nvbench_jsonbin fuzz target's first finding); one past it is no int64.
  const std::string int64_max = "9223372036854775807";
  EXPECT_NE(read_error(capture_dir(bin_summary("run.json-bin/0.bin", int64_max), &bytes))
                .find("\"size\" is 9223372036854775807; it must be 1 to 16777216 samples"),
            std::string::npos);
  EXPECT_NE(read_error(capture_dir(bin_summary("run.json-bin/0.bin", int64_max + "0"), &bytes))
                .find("not a whole number of samples"),
            std::string::npos);
  EXPECT_NE(read_error(capture_dir(bin_summary("run.json-bin", "16"), &bytes)).find("regular"),
            std::string::npos);
}

TEST(nvbench_samples, a_sample_file_outside_the_capture_is_refused) {
  const std::string bytes = float32_le(warm_series());
  EXPECT_NE(read_error(capture_dir(bin_summary("/etc/passwd", "16"), &bytes)).find("/etc/passwd"),
            std::string::npos);
  EXPECT_NE(read_error(capture_dir(bin_summary("../run.json-bin/0.bin", "16"), &bytes))
                .find("sample file name"),
            std::string::npos);
  const capture_dir outside(bin_summary("run.json-bin/0.bin", "16"), &bytes);
  const capture_dir linked(bin_summary("link/0.bin", "16"), &bytes);
  fs::create_directory_symlink(outside.path() / "run.json-bin", linked.path() / "link");
  EXPECT_NE(read_error(linked).find("resolves outside"), std::string::npos);
}

}  // namespace

// With the collector's `sample_times: true` (which passed --jsonbin), a timed state that names no
// sample file is an error naming the file and the state, not nvbench's mean; the shipped file
// (written with --json) reads as before when samples are not required.
TEST(nvbench_samples, required_samples_missing_from_a_state_is_an_error) {
  std::string message;
  try {
    (void)aorta::read_nvbench_capture(shipped, /*sample_times_required=*/true);
  } catch (const aorta::capture_error& e) {
    message = e.what();
  }
  EXPECT_NE(message.find(shipped.string() + ": benchmark state '" + first_state +
                         "': no per-sample times (no summary "
                         "'nv/json/bin:nv/cold/sample_times'), but the recipe asks for them"),
            std::string::npos)
      << message;
  EXPECT_FALSE(aorta::read_nvbench_capture(shipped).kernels.empty());
}

TEST(nvbench_samples, required_samples_fail_only_the_state_without_them) {
  const std::string bytes = float32_le(warm_series());
  const capture_dir dir(bin_summary("run.json-bin/0.bin", "16"), &bytes);
  // Only the first state of the shipped file names samples: required, the second state fails.
  std::string message;
  try {
    (void)aorta::read_nvbench_capture(dir.path(), true);
  } catch (const aorta::capture_error& e) {
    message = e.what();
  }
  EXPECT_NE(message.find("no per-sample times"), std::string::npos) << message;
  EXPECT_EQ(message.find("'" + first_state + "'"), std::string::npos) << message;
}

// A real --jsonbin capture (tests/fixtures/nvbench/README.md, h100-jsonbin): each state's sample
// file is read whole, and the time is the mean of its samples, which nvbench's own mean of the
// same samples confirms (nvbench runs its warm-up before sampling, so the rule drops few if any).
TEST(nvbench_samples, the_h100_capture_reads_every_sample_and_agrees_with_nvbenchs_mean) {
  const fs::path dir = fs::path(AORTA_FIXTURES_DIR) / "nvbench" / "h100-jsonbin";
  std::ifstream in(dir / "nvbench.json");
  const json doc = json::parse(in);
  const aorta::capture c = aorta::read_nvbench_capture(dir / "nvbench.json");
  int states = 0;
  for (const auto& state : doc.at("benchmarks").at(0).at("states")) {
    std::string file;
    double nvbench_mean_s = 0.0;
    for (const auto& summary : state.at("summaries")) {
      for (const auto& datum : summary.at("data")) {
        if (summary.at("tag") == "nv/json/bin:nv/cold/sample_times" &&
            datum.at("name") == "filename")
          file = datum.at("value").get<std::string>();
        if (summary.at("tag") == "nv/cold/time/gpu/mean" && datum.at("name") == "value")
          nvbench_mean_s = std::stod(datum.at("value").get<std::string>());
      }
    }
    ASSERT_FALSE(file.empty()) << state.at("name");
    std::ifstream bin(dir / file, std::ios::binary);
    const std::string bytes((std::istreambuf_iterator<char>(bin)),
                            std::istreambuf_iterator<char>());
    ASSERT_EQ(bytes.size() % 4, 0U);
    double lowest = std::numeric_limits<double>::infinity(), highest = 0.0, sum = 0.0;
    for (std::size_t at = 0; at < bytes.size(); at += 4) {
      std::uint32_t bits = 0;
      for (int b = 3; b >= 0; --b) bits = (bits << 8) | static_cast<unsigned char>(bytes[at + b]);
      const double ns = static_cast<double>(std::bit_cast<float>(bits)) * 1e9;
      lowest = std::min(lowest, ns);
      highest = std::max(highest, ns);
      sum += ns;
    }
    const double mean_ns = sum / static_cast<double>(bytes.size() / 4);
    EXPECT_NEAR(mean_ns, nvbench_mean_s * 1e9, nvbench_mean_s * 1e9 * 1e-6) << file;
    const std::string name =
        "gemm/N:" + state.at("axis_values").at(0).at("value").get<std::string>();
    const auto row = std::find_if(c.kernels.begin(), c.kernels.end(),
                                  [&](const auto& k) { return k.name == name; });
    ASSERT_NE(row, c.kernels.end()) << name;
    EXPECT_GE(row->total_ns, lowest) << name;
    EXPECT_LE(row->total_ns, highest) << name;
    EXPECT_NEAR(row->total_ns, mean_ns, mean_ns * 0.005) << name;
    ++states;
  }
  EXPECT_EQ(states, 2);
}
