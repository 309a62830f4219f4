// PC samples in Proton hatchets: the real H100 captures of tests/fixtures/h100-pcsampling (read
// against an independent walk of the same JSON with nlohmann::json) and hand-made hostile trees
// of the same shape (kernel node with time and count, line children with num_samples,
// num_stalled_samples and stalled_<reason>).
#include "aorta/error.hpp"
#include "checked_sum.hpp"
#include "captures/hatchet_reader.hpp"
#include "captures/pc_samples.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <map>
#include <unistd.h>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;
const fs::path h100 = fs::path(AORTA_FIXTURES_DIR) / "h100-pcsampling";

struct expected_line {
  std::uint64_t samples = 0;
  std::uint64_t stalled = 0;
  std::map<std::string, std::uint64_t> stalls;
};

// (kernel, basename:line) -> counts, straight from the JSON: the reader's job done another way.
std::map<std::pair<std::string, std::string>, expected_line> walk_fixture(const fs::path& file) {
  std::ifstream in(file);
  const nlohmann::json doc = nlohmann::json::parse(in);
  std::map<std::pair<std::string, std::string>, expected_line> out;
  for (const auto& kernel : doc.at(0).at("children")) {
    for (const auto& line : kernel.at("children")) {
      std::string name = line.at("frame").at("name");
      name = name.substr(name.rfind('/') + 1);
      name = name.substr(0, name.rfind('@'));
      expected_line& e = out[{kernel.at("frame").at("name"), name}];
      for (const auto& [key, value] : line.at("metrics").items()) {
        if (key == "num_samples") e.samples += value.get<std::uint64_t>();
        if (key == "num_stalled_samples") e.stalled += value.get<std::uint64_t>();
        if (key.rfind("stalled_", 0) == 0 && value.get<std::uint64_t>() != 0)
          e.stalls[key.substr(8)] += value.get<std::uint64_t>();
      }
    }
  }
  return out;
}

void expect_matches_fixture(const fs::path& file) {
  const aorta::capture c = aorta::read_hatchet_capture(file);
  const auto expected = walk_fixture(file);
  ASSERT_FALSE(expected.empty());
  ASSERT_EQ(c.pc_samples.size(), expected.size());
  for (const aorta::pc_sample_line& line : c.pc_samples) {
    const auto it = expected.find({line.kernel, line.location});
    ASSERT_NE(it, expected.end()) << line.kernel << " " << line.location;
    EXPECT_EQ(line.samples, it->second.samples) << line.location;
    EXPECT_EQ(line.stalled, it->second.stalled) << line.location;
    std::map<std::string, std::uint64_t> got;
    for (const aorta::pc_stall& s : line.stalls) got[s.reason] = s.samples;
    EXPECT_EQ(got, it->second.stalls) << line.location;
  }
}

fs::path write_temp(const std::string& name, const std::string& text) {
  const fs::path dir = fs::temp_directory_path() / ("aorta-pc-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const fs::path file = dir / name;
  std::ofstream(file, std::ios::binary) << text;
  return file;
}

// One kernel `k` (2 launches, 100 ns) with the given line nodes (JSON objects' text).
std::string sampled_tree(const std::vector<std::string>& lines) {
  std::string children;
  for (const std::string& line : lines) children += (children.empty() ? "" : ",") + line;
  return R"j([{"frame":{"name":"ROOT","type":"function"},"metrics":{"time (ns)":0},"children":[)j"
         R"j({"frame":{"name":"k","type":"function"},"metrics":{"count":2,"device_type":"CUDA",)j"
         R"j("time (ns)":100},"children":[)j" +
         children + "]}]},{}]";
}

std::string line_node(const std::string& name, const std::string& metrics) {
  return R"j({"frame":{"name":")j" + name + R"j(","type":"function"},"metrics":{)j" + metrics +
         R"j(},"children":[]})j";
}

TEST(PcSamples, TheH100GeluCaptureIsAKernelWithItsLines) {
  // Before: the kernel node has children, so it was read as a frame above lines without time,
  // and a real sampling capture of 50 launches failed as an empty capture.
  const aorta::capture c = aorta::read_hatchet_capture(h100 / "gelu-pcsampling-env.hatchet");
  ASSERT_EQ(c.kernels.size(), 1u);
  EXPECT_EQ(c.kernels[0].name.view(), "gelu_kernel");
  EXPECT_EQ(c.kernels[0].launches, 50u);
  EXPECT_DOUBLE_EQ(c.kernels[0].total_ns, 467291.0);
  EXPECT_FALSE(c.empty());
  ASSERT_FALSE(c.pc_samples.empty());
  EXPECT_EQ(c.pc_samples.front().location, "gelu.py:59");
  EXPECT_EQ(c.pc_samples.front().kernel, "gelu_kernel");
  expect_matches_fixture(h100 / "gelu-pcsampling-env.hatchet");
}

TEST(PcSamples, TheH100MatmulCaptureMatchesAnIndependentWalk) {
  expect_matches_fixture(h100 / "matmul-pcsampling-env.hatchet");
  const aorta::capture c = aorta::read_hatchet_capture(h100 / "matmul-pcsampling-env.hatchet");
  ASSERT_EQ(c.kernels.size(), 1u);
  EXPECT_EQ(c.kernels[0].launches, 20u);
}

TEST(PcSamples, TheCliRouteCaptureHasKernelsAndNoSample) {
  const aorta::capture c = aorta::read_hatchet_capture(h100 / "gelu-pcsampling-cli.hatchet");
  EXPECT_FALSE(c.kernels.empty());
  EXPECT_TRUE(c.pc_samples.empty());
}

TEST(PcSamples, LinesOfOneLocationAddUpAndMissingReasonsAreNone) {
  const fs::path file = write_temp(
      "sum.hatchet", sampled_tree({line_node("/a/p.py:8@k", R"j("num_samples":3)j"),
                                   line_node("/b/p.py:8@k", R"j("num_samples":4,)j"
                                                            R"j("num_stalled_samples":2,)j"
                                                            R"j("stalled_wait":2,"stalled_x":0)j"),
                                   line_node("/a/lib.py:2@helper", R"j("num_samples":1)j")}));
  const aorta::capture c = aorta::read_hatchet_capture(file);
  ASSERT_EQ(c.kernels.size(), 1u);
  ASSERT_EQ(c.pc_samples.size(), 2u);
  EXPECT_EQ(c.pc_samples[0].location, "lib.py:2@helper");
  EXPECT_EQ(c.pc_samples[1].location, "p.py:8");
  EXPECT_EQ(c.pc_samples[1].samples, 7u);
  EXPECT_EQ(c.pc_samples[1].stalled, 2u);
  ASSERT_EQ(c.pc_samples[1].stalls.size(), 1u);
  EXPECT_EQ(c.pc_samples[1].stalls[0].reason, "wait");
}

TEST(PcSamples, DamagedCountsFailTheReadNamingTheLine) {
  for (const std::string bad : {"-3", "1.5", "18446744073709551616", "\"many\"", "1e400"}) {
    const fs::path file = write_temp(
        "bad.hatchet", sampled_tree({line_node("/a/p.py:8@k", R"j("num_samples":)j" + bad)}));
    try {
      (void)aorta::read_hatchet_capture(file);
      ADD_FAILURE() << "accepted num_samples " << bad;
    } catch (const aorta::capture_error& e) {
      EXPECT_NE(std::string(e.what()).find("p.py:8"), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find("bad.hatchet"), std::string::npos) << e.what();
    }
  }
}

TEST(PcSamples, SumsPastTheCountLimitFail) {
  const std::string big = std::to_string(aorta::detail::max_count);
  const fs::path file = write_temp(
      "overflow.hatchet", sampled_tree({line_node("/a/p.py:8@k", R"j("num_samples":)j" + big),
                                        line_node("/b/p.py:8@k", R"j("num_samples":)j" + big)}));
  // Each count is valid alone; their sum passes the limit, in one file and across ranks.
  EXPECT_THROW((void)aorta::read_hatchet_capture(file), aorta::capture_error);
  std::vector<aorta::pc_sample_line> one{{"k", "p.py:8", aorta::detail::max_count, 0, {}}};
  EXPECT_THROW((void)aorta::detail::sum_pc_samples({&one, &one}, "ranks"), aorta::capture_error);
}

TEST(PcSamples, TooManyStallReasonsOnOneLineFail) {
  std::string metrics = R"j("num_samples":100)j";
  for (int i = 0; i < 65; ++i) metrics += ",\"stalled_r" + std::to_string(i) + "\":1";
  const fs::path file = write_temp("reasons.hatchet", sampled_tree({line_node("/p.py:1@k", metrics)}));
  EXPECT_THROW((void)aorta::read_hatchet_capture(file), aorta::capture_error);
}

TEST(PcSamples, AHundredThousandLinesAreRead) {
  std::vector<std::string> lines;
  lines.reserve(100'000);
  for (int i = 0; i < 100'000; ++i)
    lines.push_back(line_node("/src/p.py:" + std::to_string(i) + "@k", R"j("num_samples":1)j"));
  const aorta::capture c =
      aorta::read_hatchet_capture(write_temp("many.hatchet", sampled_tree(lines)));
  EXPECT_EQ(c.pc_samples.size(), 100'000u);
}

TEST(PcSamples, RanksSumPerLineAndReason) {
  std::vector<aorta::pc_sample_line> a{{"k", "p.py:8", 3, 1, {{"wait", 1}}}};
  std::vector<aorta::pc_sample_line> b{{"k", "p.py:8", 4, 2, {{"drain", 1}, {"wait", 1}}},
                                       {"k", "p.py:9", 1, 0, {}}};
  const auto sum = aorta::detail::sum_pc_samples({&a, &b}, "ranks");
  ASSERT_EQ(sum.size(), 2u);
  EXPECT_EQ(sum[0].samples, 7u);
  EXPECT_EQ(sum[0].stalled, 3u);
  ASSERT_EQ(sum[0].stalls.size(), 2u);
  EXPECT_EQ(sum[0].stalls[0].reason, "drain");
  EXPECT_EQ(sum[0].stalls[1].samples, 2u);
}

}  // namespace
