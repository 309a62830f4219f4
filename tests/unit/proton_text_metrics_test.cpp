// User metrics Proton writes as strings or arrays (tests/fixtures/proton-formats/README.md): kept
// as text in the capture, named in the metrics, refused by numeric checks with a reason.
#include "aorta/check.hpp"
#include "aorta/error.hpp"
#include "captures/hatchet_reader.hpp"
#include "aorta/metrics.hpp"
#include "aorta/trial_record.hpp"
#include "captures/tree_view.hpp"
#include "captures/hatchet_reader_detail.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

namespace {

namespace fs = std::filesystem;
const fs::path formats = fs::path(AORTA_FIXTURES_DIR) / "proton-formats";

using row = std::tuple<std::string, std::string, std::string>;  // path joined by '/', key, text

std::vector<row> rows(const aorta::capture& c) {
  std::vector<row> out;
  for (const auto& t : c.text_metrics) {
    std::string path;
    for (const auto& name : t.path) path += (path.empty() ? "" : "/") + name;
    out.emplace_back(path, t.key, t.text);
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::string histogram_prefix() {
  // range(600) as JSON, cut at the 1024-byte limit, plus the marker.
  std::string all = "[";
  for (int i = 0; i < 600; ++i) all += (i == 0 ? "" : ",") + std::to_string(i);
  return all.substr(0, aorta::text_metric_max_bytes) + "...";
}

aorta::capture from_text(const std::string& json, std::size_t chunk = 4096) {
  std::istringstream in(json);
  return aorta::detail::read_hatchet_stream(in, chunk);
}

std::string tree_with_root_metrics(const std::string& metrics) {
  return R"j([{"frame":{"name":"ROOT"},"metrics":{"count":0,"time (ns)":0},"children":[)j"
         R"j({"frame":{"name":"s"},"metrics":)j" +
         metrics +
         R"j(,"children":[{"frame":{"name":"k"},"children":[],)j"
         R"j("metrics":{"count":1,"time (ns)":5,"device_id":"0","device_type":"CUDA"}}]}]},{}])j";
}

TEST(TextMetrics, EveryPlaceTreeDataWritesThemIsKeptInJsonAndMsgpack) {
  const std::vector<row> expected{
      {"decode", "histogram", histogram_prefix()},
      {"decode/gemm_small", "dtype", "fp16"},
      {"decode/gemm_small", "shape", "[32,32]"},
      {"decode/graph_launch", "bytes", "[1,2,3]"},       // from the <metric> helper
      {"decode/graph_launch", "graph_tag", "cuda-graph-7"},
      {"prefill", "per_sm_waves", "[1,2,-3]"},
      {"prefill", "phase_note", "warm \"cache\"\nsecond line"},
      {"prefill", "scale", "[0.5,1.5]"},
      {"prefill", "tokens", "128"},  // a string, even if it reads like a number
  };
  for (const fs::path& file :
       {formats / "text_metrics.hatchet", formats / "msgpack" / "text_metrics.hatchet_msgpack"}) {
    SCOPED_TRACE(file.string());
    const aorta::capture c = aorta::read_hatchet_capture(file);
    EXPECT_EQ(rows(c), expected);
    // The numbers around them are read as before; text-only frames add no frame to the tree.
    ASSERT_EQ(c.kernels.size(), 3u);
    EXPECT_EQ(c.kernels[0].name, "gemm_large");
    EXPECT_EQ(c.kernels[0].launches, 10u);
    std::vector<std::string> frames;
    for (const auto& f : c.frames) frames.push_back(f.name);
    std::sort(frames.begin(), frames.end());
    EXPECT_EQ(frames, (std::vector<std::string>{"decode", "graph_launch", "prefill"}));
    const bool noted = std::any_of(c.notes.begin(), c.notes.end(), [](const std::string& n) {
      return n.find("text metric 'histogram' of 'decode': 2291 bytes, kept the first 1024") !=
             std::string::npos;
    });
    EXPECT_TRUE(noted) << ::testing::PrintToString(c.notes);
  }
}

TEST(TextMetrics, NestedArraysAndEscapesSurviveTinyChunks) {
  const std::string json =
      tree_with_root_metrics(R"j({"m":[["a\"b\u0001",true,null],{"k":[1e3]}],"n":"x"})j");
  for (std::size_t chunk : {std::size_t{1}, std::size_t{5}, std::size_t{4096}}) {
    const aorta::capture c = from_text(json, chunk);
    EXPECT_EQ(rows(c), (std::vector<row>{{"s", "m", R"j([["a\"b\u0001",true,null],{"k":[1e3]}])j"},
                                         {"s", "n", "x"}}))
        << chunk;
    EXPECT_EQ(c.kernels.size(), 1u);
  }
}

TEST(TextMetrics, LongStringsAreCutOnACharacterBoundaryAndCountIsBounded) {
  // 1023 ASCII bytes, then a two-byte character that would straddle the limit.
  const std::string value = std::string(1023, 'a') + "\xc3\xa9" + "tail";
  std::string metrics = "{\"long\":\"" + value + "\"";
  for (std::size_t i = 0; i < aorta::text_metric_max_count + 5; ++i)
    metrics += ",\"t" + std::to_string(i) + "\":\"v\"";
  metrics += "}";
  const aorta::capture c = from_text(tree_with_root_metrics(metrics));
  ASSERT_EQ(c.text_metrics.size(), aorta::text_metric_max_count);
  EXPECT_EQ(c.text_metrics[0].key, "long");
  EXPECT_EQ(c.text_metrics[0].text, std::string(1023, 'a') + "...");
  const auto has = [&](std::string_view needle) {
    return std::any_of(c.notes.begin(), c.notes.end(), [&](const std::string& n) {
      return n.find(needle) != std::string::npos;
    });
  };
  EXPECT_TRUE(has("text metric 'long' of 's': 1029 bytes, kept the first 1024"));
  EXPECT_TRUE(has("6 text metric(s) beyond the first 1000 were not kept"));
}

TEST(TextMetrics, ALaterPartFileReplacesTheValue) {
  const fs::path dir = fs::temp_directory_path() /
                       ("aorta_text_parts_" + std::to_string(::testing::UnitTest::GetInstance()
                                                                 ->random_seed()));
  fs::create_directories(dir);
  std::ofstream(dir / "proton.part_0.hatchet") << tree_with_root_metrics(R"({"stage":"warmup"})");
  std::ofstream(dir / "proton.part_1.hatchet") << tree_with_root_metrics(R"({"stage":"steady"})");
  const aorta::capture c = aorta::read_hatchet_capture(dir);
  fs::remove_all(dir);
  EXPECT_EQ(rows(c), (std::vector<row>{{"s", "stage", "steady"}}));
  EXPECT_EQ(c.kernels.at(0).launches, 2u);
}

TEST(TextMetrics, MetricsNameThemAndANumericCheckFailsSayingWhy) {
  const aorta::capture c = aorta::read_hatchet_capture(formats / "text_metrics.hatchet");
  const aorta::metric_set metrics = aorta::compute_metrics(c);
  EXPECT_EQ(std::get<std::string>(metrics.values.at("proton_text.prefill:tokens")), "128");
  EXPECT_EQ(std::get<std::string>(metrics.values.at("proton_text.decode/graph_launch:graph_tag")),
            "cuda-graph-7");
  const aorta::check_result result = aorta::evaluate_check(
      aorta::check_expression::parse("proton_text.prefill:tokens > 100"), {c}, metrics);
  EXPECT_FALSE(result.passed);
  EXPECT_NE(result.message.find("metric 'proton_text.prefill:tokens' is text ('128'), not a "
                                "number; the profiler wrote this user metric as a string or array"),
            std::string::npos)
      << result.message;
}

TEST(TextMetrics, ResultJsonHoldsThemAsStringsAndReadsThemBack) {
  aorta::trial_record record;
  record.metrics =
      aorta::compute_metrics(aorta::read_hatchet_capture(formats / "text_metrics.hatchet"));
  const nlohmann::json json = aorta::to_json(record);
  EXPECT_EQ(json.at("metrics").at("proton_text.decode/gemm_small:shape"), "[32,32]");
  EXPECT_EQ(json.at("metrics").at("proton_text.prefill:phase_note"), "warm \"cache\"\nsecond line");
  const aorta::trial_record back = aorta::trial_record_from_json(json);
  EXPECT_EQ(std::get<std::string>(back.metrics.values.at("proton_text.prefill:tokens")), "128");
}

TEST(TextMetrics, RanksKeepTheLowestRanksValueAndNoteADifferentOne) {
  aorta::capture a = from_text(tree_with_root_metrics(R"({"stage":"warmup"})"));
  aorta::capture b = from_text(tree_with_root_metrics(R"({"stage":"steady"})"));
  a.rank = 0;
  b.rank = 1;
  const aorta::capture sum = aorta::sum_over_ranks({&a, &b});
  EXPECT_EQ(rows(sum), (std::vector<row>{{"s", "stage", "warmup"}}));
  const bool noted = std::any_of(sum.notes.begin(), sum.notes.end(), [](const std::string& n) {
    return n == "rank 1: text metric 'stage' is 'steady' here; the sum keeps 'warmup'";
  });
  EXPECT_TRUE(noted) << ::testing::PrintToString(sum.notes);
}

TEST(TextMetrics, TheViewShowsEachUnderItsNodeWithTheMetricName) {
  std::ostringstream out;
  aorta::render_hatchet_tree(formats / "text_metrics.hatchet", "", out);
  const std::string text = out.str();
  EXPECT_NE(text.find("├─ 26.700 prefill   [under(prefill)]\n"
                      "│  │  phase_note = warm \"cache\"\\nsecond line   "
                      "[proton_text.prefill:phase_note]\n"),
            std::string::npos)
      << text;
  // The helper's metrics are named for its parent; the newline is shown escaped.
  EXPECT_NE(text.find("graph_tag = cuda-graph-7   [proton_text.decode/graph_launch:graph_tag]"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("per_sm_waves = [1,2,-3]   [proton_text.prefill:per_sm_waves]"),
            std::string::npos)
      << text;
}

}  // namespace
