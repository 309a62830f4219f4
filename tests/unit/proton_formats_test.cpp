// Proton's other output shapes (tests/fixtures/proton-formats/README.md, and the H200 captures of
// tests/fixtures/h200-scoped): chrome traces, hatchet_msgpack, part files, <metric> helpers.
#include "aorta/error.hpp"
#include "captures/hatchet_reader.hpp"
#include "captures/chrome_trace_reader.hpp"
#include "captures/frame_tree.hpp"
#include "captures/proton_msgpack.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;
const fs::path formats = fs::path(AORTA_FIXTURES_DIR) / "proton-formats";
const fs::path h200 = fs::path(AORTA_FIXTURES_DIR) / "h200-scoped";

const aorta::kernel_stat* find(const aorta::capture& c, const std::string& name) {
  for (const auto& k : c.kernels)
    if (k.name == name) return &k;
  return nullptr;
}

double under(const aorta::capture& c, const std::string& frame) {
  double total = 0;
  for (const auto& p : c.placements)
    if (p.frame != aorta::context_frame::no_parent && c.frames[p.frame].name == frame)
      total += p.kernel.total_ns;
  return total;
}

void expect_phases(const aorta::capture& c) {
  const auto* large = find(c, "gemm_large");
  const auto* small = find(c, "gemm_small");
  ASSERT_NE(large, nullptr);
  ASSERT_NE(small, nullptr);
  EXPECT_EQ(large->launches, 10u);
  EXPECT_EQ(small->launches, 10u);
  EXPECT_NEAR(large->total_ns, 26.7e6, 1.0);
  EXPECT_NEAR(under(c, "decode"), 63e3, 1e-3);
}

TEST(ChromeTrace, JsonLinesPerStreamAreSummedAndPlaced) {
  expect_phases(aorta::read_hatchet_capture(formats / "streams.chrome_trace"));
}

TEST(ChromeTrace, TokensAcrossTinyChunksReadTheSame) {
  const std::string text = R"({"traceEvents":[{"name":"k","ph":"X","cat":"kernel","dur":1.5,)"
                           R"("args":{"call_stack":["ROOT","s","k"]}},)"
                           R"({"name":"b","ph":"B"},{"name":"x","ph":"X","cat":"cpu_op","dur":3}]})"
                           "\n[{\"name\":\"k\",\"ph\":\"X\",\"cat\":\"kernel\",\"dur\":2.5}]";
  for (std::size_t chunk : {std::size_t{1}, std::size_t{7}, std::size_t{4096}}) {
    aorta::detail::chrome_trace_totals totals;
    std::size_t at = 0;
    aorta::detail::scan_chrome_trace(
        [&](char* data, std::size_t size) {
          const std::size_t n = std::min(size, text.size() - at);
          std::memcpy(data, text.data() + at, n);
          at += n;
          return n;
        },
        chunk, totals);
    aorta::capture c;
    aorta::detail::finish_chrome_trace(totals, c);
    ASSERT_EQ(c.kernels.size(), 1u) << chunk;
    EXPECT_EQ(c.kernels[0].launches, 2u);
    EXPECT_DOUBLE_EQ(c.kernels[0].total_ns, 4000.0);
    EXPECT_DOUBLE_EQ(under(c, "s"), 1500.0);
    ASSERT_EQ(c.notes.size(), 1u);
    EXPECT_NE(c.notes[0].find("category 'cpu_op'"), std::string::npos) << c.notes[0];
  }
}

TEST(ChromeTrace, TruncatedNamesTheFile) {
  try {
    (void)aorta::read_hatchet_capture(formats / "truncated.chrome_trace");
    FAIL();
  } catch (const aorta::capture_error& e) {
    EXPECT_NE(std::string(e.what()).find("truncated.chrome_trace: byte"), std::string::npos)
        << e.what();
  }
}

TEST(ChromeTrace, TheH200TraceMatchesTheH200Tree) {
  const aorta::capture trace = aorta::read_hatchet_capture(h200 / "trace");
  const aorta::capture tree = aorta::read_hatchet_capture(h200 / "tree");
  EXPECT_EQ(trace.kernels.size(), tree.kernels.size());
  EXPECT_NEAR(under(trace, "prefill"), under(tree, "prefill"), 1e3);
  EXPECT_NEAR(under(trace, "decode"), under(tree, "decode"), 1e3);
  EXPECT_NEAR(under(tree, "prefill"), 26.734e6, 1e3);
}

TEST(HatchetMsgpack, TreeAndTraceDocumentsReadLikeTheirJson) {
  expect_phases(aorta::read_hatchet_capture(formats / "msgpack" / "tree.hatchet_msgpack"));
  expect_phases(aorta::read_hatchet_capture(formats / "msgpack" / "trace.hatchet_msgpack"));
}

TEST(HatchetMsgpack, OtherMessagePackIsRefusedByName) {
  const std::vector<std::uint8_t> map = nlohmann::json::to_msgpack(nlohmann::json{{"a", 1}});
  EXPECT_THROW((void)aorta::detail::decode_proton_msgpack(std::string(map.begin(), map.end()), "x"),
               aorta::capture_error);
  EXPECT_THROW((void)aorta::detail::decode_proton_msgpack("\xc1", "x"), aorta::capture_error);
  EXPECT_THROW((void)aorta::read_hatchet_capture(formats / "msgpack" / "truncated.hatchet_msgpack"),
               aorta::capture_error);
}

TEST(HatchetMsgpack, InvalidUtf8InANameIsReplacedNotThrown) {
  // Found by fuzz_hatchet_msgpack: dump() threw json type_error 316 on such a name.
  nlohmann::json tree = nlohmann::json::parse(
      R"j([{"frame":{"name":"ROOT"},"metrics":{},"children":[{"frame":{"name":"k"},)j"
      R"j("metrics":{"count":1,"time (ns)":5},"children":[]}]},{}])j");
  tree[0]["children"][0]["frame"]["name"] = std::string("k\xae");
  const std::vector<std::uint8_t> bytes = nlohmann::json::to_msgpack(tree);
  const auto doc =
      aorta::detail::decode_proton_msgpack(std::string(bytes.begin(), bytes.end()), "x");
  EXPECT_FALSE(doc.is_trace);
  EXPECT_NE(doc.json.find("k\xef\xbf\xbd"), std::string::npos) << doc.json;
}

TEST(PartFiles, PeriodicFlushesAreSummed) {
  const aorta::capture c = aorta::read_hatchet_capture(formats / "parts");
  EXPECT_EQ(c.files.size(), 2u);
  expect_phases(c);
  // prefill occurs in both parts: one frame, not two.
  std::size_t prefill_frames = 0;
  for (const auto& f : c.frames) prefill_frames += f.name == "prefill" ? 1 : 0;
  EXPECT_EQ(prefill_frames, 1u);
}

TEST(FrameTree, AnOversizedTreeIsDroppedWithANoteAndReadingGoesOn) {
  aorta::detail::frame_tree_builder tree;
  std::size_t frame = aorta::context_frame::no_parent;
  for (std::size_t i = 0; i < aorta::detail::frame_tree_max_entries; ++i)
    frame = tree.child(frame, "f" + std::to_string(i));
  EXPECT_FALSE(tree.dropped());
  tree.add_kernel(frame, "k", 1, 1.0);
  EXPECT_TRUE(tree.dropped());
  aorta::capture c;
  tree.finish(c);
  EXPECT_TRUE(c.frames.empty());
  EXPECT_TRUE(c.placements.empty());
  ASSERT_EQ(c.notes.size(), 1u);
  EXPECT_NE(c.notes[0].find("under(...) checks cannot be evaluated"), std::string::npos);
}

TEST(NewerTrees, MetricHelpersNumericDeviceTypeAndTextMetrics) {
  const aorta::capture c = aorta::read_hatchet_capture(formats / "metric_helper.hatchet");
  ASSERT_EQ(c.kernels.size(), 1u);
  EXPECT_EQ(c.kernels[0].name, "graph_gemm");
  EXPECT_EQ(c.kernels[0].launches, 2u);
  EXPECT_EQ(c.backend, "cupti");  // device_type "1" is CUDA
  for (const auto& f : c.frames) EXPECT_NE(f.name, "<metric>");
  // The graph's user metrics, its helper's included, are kept as text for decode/graph_launch.
  std::vector<std::string> kept;
  for (const auto& t : c.text_metrics) {
    EXPECT_EQ(t.path, (std::vector<std::string>{"decode", "graph_launch"})) << t.key;
    kept.push_back(t.key + "=" + t.text);
  }
  std::sort(kept.begin(), kept.end());
  EXPECT_EQ(kept, (std::vector<std::string>{"bytes=[1,2,3]", "flops=[1.5,2.5]", "tokens=128",
                                            "user_note=warm cache"}));
}

}  // namespace
