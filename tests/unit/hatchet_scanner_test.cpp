// The streaming scanner under stress: every truncation, every chunk size, escapes, key orders,
// depth, and documents that are JSON of the wrong shape or not JSON at all.
#include "aorta/error.hpp"
#include "captures/hatchet_reader.hpp"
#include "captures/hatchet_reader_detail.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace aorta {
namespace {

namespace fs = std::filesystem;

capture parse(const std::string& json, std::size_t chunk = 1 << 20) {
  std::istringstream in(json);
  return detail::read_hatchet_stream(in, chunk);
}

// The capture_error message for `json`, or "" when it parsed.
std::string error_of(const std::string& json, std::size_t chunk = 1 << 20) {
  try {
    static_cast<void>(parse(json, chunk));
  } catch (const capture_error& e) {
    return e.what();
  }
  return {};
}

// Two kernels (one nested under a Python frame), one scope pair, a device table; with spaces,
// newlines, escapes, a negative exponent and a literal so every token kind crosses a boundary.
const std::string sample = R"j([
  {"frame": {"name": "ROOT", "type": "function"}, "metrics": {"time (ns)": 0, "count": 0},
   "children": [
    {"frame": {"name": "model.py:12@forward"}, "metrics": {}, "children": [
      {"frame": {"name": "sgemm\t\"tiled\""}, "metrics": {"time (us)": 1.25e-1, "count": 3,
       "device_type": "CUDA", "device_id": "0", "flag": true, "none": null}, "children": []}]},
    {"children": [{"children": [], "frame": {"name": "body"},
                   "metrics": {"cycles": 4000, "normalized_cycles": 12.5}}],
     "frame": {"name": "instr_kernel"}, "metrics": {}},
    {"frame": {"name": "relu_\u00e9\ud83d\ude00"}, "metrics": {"time (ns)": 200, "count": 1},
     "children": []}]},
  {"CUDA": {"0": {"arch": "90", "num_sms": 132}}}
]
)j";

void expect_sample(const capture& c) {
  ASSERT_EQ(c.kernels.size(), 2U);
  EXPECT_EQ(c.kernels[0].name, "relu_\xC3\xA9\xF0\x9F\x98\x80");
  EXPECT_DOUBLE_EQ(c.kernels[0].total_ns, 200.0);
  EXPECT_EQ(c.kernels[0].launches, 1U);
  EXPECT_EQ(c.kernels[1].name, "sgemm\t\"tiled\"");
  EXPECT_DOUBLE_EQ(c.kernels[1].total_ns, 125.0);
  EXPECT_EQ(c.kernels[1].launches, 3U);
  ASSERT_EQ(c.scopes.size(), 1U);
  EXPECT_EQ(c.scopes[0].kernel, "instr_kernel");
  EXPECT_EQ(c.scopes[0].scope, "body");
  EXPECT_DOUBLE_EQ(c.scopes[0].cycles, 4000.0);
  EXPECT_DOUBLE_EQ(c.scopes[0].normalized_cycles, 12.5);
  ASSERT_EQ(c.devices.size(), 1U);
  EXPECT_EQ(c.devices[0].properties.at("num_sms"), "132");
}

TEST(hatchet_scanner, sample_parses_with_every_chunk_size) {
  for (std::size_t chunk = 1; chunk <= 80; ++chunk) {
    SCOPED_TRACE("chunk " + std::to_string(chunk));
    expect_sample(parse(sample, chunk));
  }
  expect_sample(parse(sample));
}

TEST(hatchet_scanner, every_truncation_is_an_error_never_a_crash) {
  const std::size_t end = sample.find_last_not_of(" \n") + 1;
  for (std::size_t len = 0; len < end; ++len) {
    for (const std::size_t chunk : {std::size_t{3}, std::size_t{1} << 20}) {
      const std::string what = error_of(sample.substr(0, len), chunk);
      EXPECT_NE(what.find("<stream>: byte "), std::string::npos)
          << "prefix of " << len << " bytes, chunk " << chunk << ": '" << what << "'";
    }
  }
  expect_sample(parse(sample.substr(0, end)));
}

TEST(hatchet_scanner, truncation_message_says_what_was_expected) {
  const std::string what = error_of(R"j([{"frame": {"name": "ROOT"}, "metrics": {)j");
  EXPECT_NE(what.find("byte 41"), std::string::npos) << what;
  EXPECT_NE(what.find("inside an object: expected a key"), std::string::npos) << what;
  EXPECT_NE(what.find("truncated"), std::string::npos) << what;
}

TEST(hatchet_scanner, key_order_does_not_matter) {
  // frame / metrics / children in all six orders for both the kernel and the scope's parent.
  std::array<int, 3> order{0, 1, 2};
  do {
    const auto node = [&](const std::string& name, const std::string& metrics,
                          const std::string& children) {
      const std::array<std::string, 3> parts{
          R"j("frame": {"type": "function", "name": ")j" + name + "\"}",
          "\"metrics\": {" + metrics + "}", "\"children\": [" + children + "]"};
      return "{" + parts[order[0]] + "," + parts[order[1]] + "," + parts[order[2]] + "}";
    };
    const std::string scope = node("s", R"j("normalized_cycles": 2, "cycles": 8)j", "");
    const std::string doc =
        "[" +
        node("ROOT", "",
             node("k", R"j("count": 2, "time (ns)": 30)j", "") + "," + node("kern", "", scope)) +
        ", {}]";
    const capture c = parse(doc);
    ASSERT_EQ(c.kernels.size(), 1U) << doc;
    EXPECT_EQ(c.kernels[0].name, "k");
    EXPECT_DOUBLE_EQ(c.kernels[0].total_ns, 30.0);
    EXPECT_EQ(c.kernels[0].launches, 2U);
    ASSERT_EQ(c.scopes.size(), 1U) << doc;
    EXPECT_EQ(c.scopes[0].kernel, "kern");
    EXPECT_DOUBLE_EQ(c.scopes[0].cycles, 8.0);
    EXPECT_DOUBLE_EQ(c.scopes[0].normalized_cycles, 2.0);
  } while (std::next_permutation(order.begin(), order.end()));
}

TEST(hatchet_scanner, escapes_decode_and_bad_escapes_fail) {
  const auto doc = [](const std::string& name) {
    return R"j([{"frame":{"name":"ROOT"},"metrics":{},"children":[{"frame":{"name":")j" + name +
           R"j("},"metrics":{"time (ns)":1,"count":1},"children":[]}]}])j";
  };
  EXPECT_EQ(parse(doc(R"j(a\/b\\c\n\u0041\u00DF)j")).kernels.at(0).name, "a/b\\c\nA\xC3\x9F");
  EXPECT_NE(error_of(doc(R"j(bad\x)j")).find("invalid escape"), std::string::npos);
  EXPECT_NE(error_of(doc(R"j(lone\ud83d)j")).find("invalid escape"), std::string::npos);
  EXPECT_NE(error_of(doc(R"j(\u12G4)j")).find("invalid escape"), std::string::npos);
  EXPECT_NE(error_of(doc("tab\there")).find("control character"), std::string::npos);
}

// The string loop looks at 16 bytes at a time: a quote, an escape or a control character at any
// offset of a long name, including the last bytes before the closing quote, is still seen there.
TEST(hatchet_scanner, every_offset_of_a_long_name_is_looked_at) {
  const auto doc = [](const std::string& name) {
    return R"j([{"frame":{"name":"ROOT"},"metrics":{},"children":[{"frame":{"name":")j" + name +
           R"j("},"metrics":{"time (ns)":1,"count":1},"children":[]}]}])j";
  };
  for (std::size_t at = 0; at < 40; ++at) {
    const std::string plain(40, 'n');
    std::string decoded = plain;
    decoded.insert(at, 1, '"');
    EXPECT_EQ(parse(doc(plain.substr(0, at) + "\\\"" + plain.substr(at))).kernels.at(0).name,
              decoded)
        << at;
    std::string control = plain;
    control[at] = '\x01';
    EXPECT_NE(error_of(doc(control)).find("control character"), std::string::npos) << at;
    EXPECT_EQ(parse(doc(plain.substr(0, at + 1))).kernels.at(0).name, plain.substr(0, at + 1))
        << at;
  }
}

TEST(hatchet_scanner, non_json_numbers_are_errors) {
  const auto doc = [](const std::string& value) {
    return R"j([{"frame":{"name":"ROOT"},"metrics":{},"children":[{"frame":{"name":"k"},)j"
           R"j("metrics":{"time (ns)":)j" +
           value + R"j(,"count":1},"children":[]}]}])j";
  };
  EXPECT_NE(error_of(doc("NaN")).find("NaN or Infinity"), std::string::npos);
  EXPECT_NE(error_of(doc("Infinity")).find("NaN or Infinity"), std::string::npos);
  EXPECT_NE(error_of(doc("-Infinity")).find("-Infinity"), std::string::npos);
  EXPECT_NE(error_of(doc("01")).find("malformed number '01'"), std::string::npos);
  EXPECT_NE(error_of(doc("1.")).find("malformed number"), std::string::npos);
  EXPECT_NE(error_of(doc("+1")).find("expected a value"), std::string::npos);
  EXPECT_TRUE(parse(doc("-0.5e+2")).kernels.empty());  // negative: dropped, not fatal
  EXPECT_DOUBLE_EQ(parse(doc("2.5E2")).kernels.at(0).total_ns, 250.0);
}

TEST(hatchet_scanner, wrong_shapes_are_errors_that_say_what_was_expected) {
  EXPECT_NE(error_of("").find("empty input"), std::string::npos);
  EXPECT_NE(error_of("\"hello\"").find("expected a JSON array"), std::string::npos);
  EXPECT_NE(error_of("[]").find("empty top-level array"), std::string::npos);
  EXPECT_NE(error_of("[1]").find("tree node"), std::string::npos);
  EXPECT_NE(error_of(R"j([{"frame":{"name":"ROOT"},"metrics":[]}])j")
                .find("\"metrics\" is an "
                      "array"),
            std::string::npos);
  EXPECT_NE(error_of(R"j([{"frame":{"name":"ROOT"},"children":{}}])j").find("\"children\""),
            std::string::npos);
  EXPECT_NE(error_of(R"j([{"frame":{"name":7}}])j").find("frame name is a number"),
            std::string::npos);
  EXPECT_NE(error_of(R"j([{"metrics":{}}])j").find("without \"frame\""), std::string::npos);
  EXPECT_NE(error_of(R"j([{"frame":{"name":"ROOT"}}, {}, {}])j").find("third element"),
            std::string::npos);
  EXPECT_NE(error_of(R"j([{"frame":{"name":"ROOT"}}, []])j").find("device table"),
            std::string::npos);
  EXPECT_NE(error_of(R"j([{"frame":{"name":"ROOT"}}] x)j").find("after the end"),
            std::string::npos);
  EXPECT_NE(error_of(R"j([{"frame":{"name":"ROOT"}} {}])j").find("expected ',' or ']'"),
            std::string::npos);
  // Unknown keys and odd metric values are skipped, not fatal.
  const capture c = parse(R"j([{"frame":{"name":"ROOT","extra":[1,{"a":[]}]},"x":{"y":[{}]},)j"
                          R"j("metrics":{"flops":[1,2],"time (ns)":{"v":1}},"children":[]}, {}])j");
  EXPECT_TRUE(c.empty());
}

TEST(hatchet_scanner, chrome_traces_are_recognised) {
  const std::string what = error_of(R"j({"traceEvents": [{"name": "k", "ph": "X"}]})j");
  EXPECT_NE(what.find("byte 0"), std::string::npos) << what;
  EXPECT_NE(what.find("looks like a chrome trace; the proton collector parses data: tree"),
            std::string::npos)
      << what;
  const std::string array_form = error_of(R"j([{"name": "k", "ph": "X", "ts": 1}])j");
  EXPECT_NE(array_form.find("chrome trace"), std::string::npos) << array_form;
}

TEST(hatchet_scanner, nesting_depth_is_limited) {
  // Each nested node opens two containers (the node object and its children array).
  const auto nested = [](std::size_t nodes) {
    std::string s = "[";
    for (std::size_t i = 0; i < nodes; ++i) s += R"j({"frame":{"name":"f"},"children":[)j";
    s += R"j({"frame":{"name":"deep"},"metrics":{"time (ns)":7,"count":1}})j";
    for (std::size_t i = 0; i < nodes; ++i) s += "]}";
    return s + "]";
  };
  const capture ok = parse(nested(2000), 64);
  ASSERT_EQ(ok.kernels.size(), 1U);
  EXPECT_EQ(ok.kernels[0].name, "deep");
  EXPECT_NE(error_of(nested(2100)).find("nesting deeper than 4096"), std::string::npos);
}

TEST(hatchet_scanner, long_tokens_span_many_chunks) {
  const std::string name(5000, 'n');
  const std::string doc = R"j([{"frame":{"name":"ROOT"},"children":[{"frame":{"name":")j" + name +
                          R"j("},"metrics":{"time (ns)":1)j" + std::string(300, '0') +
                          R"j(e-300,"count":1}}]}])j";
  const capture c = parse(doc, 7);
  ASSERT_EQ(c.kernels.size(), 1U);
  EXPECT_EQ(c.kernels[0].name, name);
  EXPECT_DOUBLE_EQ(c.kernels[0].total_ns, 1.0);
}

TEST(hatchet_scanner, fixture_files_fail_with_file_offset_and_reason) {
  const fs::path dir = fs::path(AORTA_FIXTURES_DIR) / "hatchet";
  const auto error_for = [&](const char* file) -> std::string {
    try {
      static_cast<void>(read_hatchet_capture(dir / file));
    } catch (const capture_error& e) {
      return e.what();
    }
    return "no error";
  };
  const std::string truncated = error_for("truncated.hatchet");
  EXPECT_NE(truncated.find("truncated.hatchet: byte "), std::string::npos) << truncated;
  EXPECT_NE(truncated.find("(line 3)"), std::string::npos) << truncated;
  EXPECT_NE(error_for("chrome_trace.hatchet").find("chrome trace"), std::string::npos);
  const std::string nan = error_for("nan_token.hatchet");
  EXPECT_NE(nan.find("(line 2)"), std::string::npos) << nan;
  EXPECT_NE(nan.find("NaN"), std::string::npos) << nan;
  EXPECT_NE(error_for("not_an_array.hatchet").find("expected a JSON array"), std::string::npos);
  const capture c = read_hatchet_capture(dir / "cuda_small.hatchet");
  ASSERT_EQ(c.kernels.size(), 2U);
  EXPECT_EQ(c.kernels[0].name, "add_kernel");
  EXPECT_DOUBLE_EQ(c.kernels[0].total_ns, 41000.0);
  EXPECT_EQ(c.kernels[0].launches, 20U);
  EXPECT_EQ(c.kernels[1].name, "mul_kernel");
  EXPECT_EQ(c.backend, "cupti");
}

}  // namespace
}  // namespace aorta
