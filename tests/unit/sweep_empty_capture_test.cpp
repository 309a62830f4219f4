// What aorta tells the user when a profiler came back with nothing: per collector, the artifact
// directory and causes they can act on.
#include "aorta/collector.hpp"

#include <gtest/gtest.h>

#include <string>

namespace aorta::detail {
namespace {

capture empty_of(const std::string& collector) {
  capture empty;
  empty.collector = collector;
  empty.artifact_dir = "/results/trial_0/" + collector;
  return empty;
}

option_map options(std::initializer_list<std::pair<const std::string, std::string>> values) {
  option_map map;
  for (const auto& [key, text] : values) map.emplace(key, option_value{text, {}});
  return map;
}

// Each collector explains its own empty capture; one without an explanation of its own (here a
// validated-only one) gets the base class's.
std::string explain_empty_capture(const capture& empty, const option_map& options) {
  const collector_base* collector = find_collector(empty.collector);
  if (collector == nullptr) collector = find_collector("numerics");
  return collector->explain_empty(empty, *collector->parse_options(options));
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

TEST(ExplainEmptyCapture, ProtonWithoutAHatchetNamesSysExitAndTheDirectory) {
  const std::string text = explain_empty_capture(empty_of("proton"), options({{"mode", "cli"}}));
  EXPECT_TRUE(text.starts_with("empty capture: proton wrote no .hatchet under "
                               "/results/trial_0/proton."))
      << text;
  EXPECT_TRUE(contains(text, "sys.exit(0)")) << text;
  EXPECT_TRUE(contains(text, "crashed or was killed")) << text;
  EXPECT_TRUE(contains(text, "allow_empty: true")) << text;
  // mode: cli does not need the payload to call proton.start() itself.
  EXPECT_FALSE(contains(text, "proton.start(")) << text;
}

TEST(ExplainEmptyCapture, ProtonDefaultsToModeCli) {
  EXPECT_EQ(explain_empty_capture(empty_of("proton"), {}),
            explain_empty_capture(empty_of("proton"), options({{"mode", "cli"}})));
}

TEST(ExplainEmptyCapture, ProtonEnvModePutsTheMissingStartCallFirst) {
  const std::string text = explain_empty_capture(empty_of("proton"), options({{"mode", "env"}}));
  EXPECT_TRUE(contains(text, "in mode: env the payload must call "
                             "proton.start(os.environ['AORTA_PROTON_NAME'], ...)"))
      << text;
  EXPECT_LT(text.find("proton.start("), text.find("sys.exit(0)")) << text;
}

TEST(ExplainEmptyCapture, ProtonWithABareRootNamesTheLateBackend) {
  capture bare = empty_of("proton");
  bare.files.push_back("/results/trial_0/proton/proton.hatchet");
  const std::string text = explain_empty_capture(bare, options({{"mode", "cli"}}));
  EXPECT_TRUE(text.starts_with("empty capture: /results/trial_0/proton holds no kernel and no "
                               "scope (a bare ROOT, or a trace without kernel events)."))
      << text;
  EXPECT_TRUE(contains(text, "roctracer pinned under mode: cli")) << text;
  // data: trace is read since issue 12, so it is no longer offered as a cause.
  EXPECT_FALSE(contains(text, "only data: tree is read")) << text;
  EXPECT_FALSE(contains(text, "sys.exit(0)")) << text;
}

TEST(ExplainEmptyCapture, Rocprof) {
  const std::string text = explain_empty_capture(empty_of("rocprof"), {});
  EXPECT_TRUE(text.starts_with("empty capture: rocprofv3 left no kernel data under "
                               "/results/trial_0/rocprof."))
      << text;
  EXPECT_TRUE(contains(text, "kernel_include_regex matched no kernel")) << text;
  EXPECT_TRUE(contains(text, "pftrace/otf2, which aorta does not read")) << text;
}

TEST(ExplainEmptyCapture, Ncu) {
  const std::string text = explain_empty_capture(empty_of("ncu"), {});
  EXPECT_TRUE(text.starts_with("empty capture: ncu profiled no kernel under /results/trial_0/ncu."))
      << text;
  EXPECT_TRUE(contains(text, "kernel_name matched no kernel")) << text;
  EXPECT_TRUE(contains(text, "ERR_NVGPUCTRPERM")) << text;
}

TEST(ExplainEmptyCapture, Callgrind) {
  const std::string text = explain_empty_capture(empty_of("callgrind"), {});
  EXPECT_TRUE(text.starts_with("empty capture: callgrind recorded no function cost under "
                               "/results/trial_0/callgrind."))
      << text;
  EXPECT_TRUE(contains(text, "toggle_collect names a function that never ran")) << text;
  EXPECT_TRUE(contains(text, "trace_children: true")) << text;
}

TEST(ExplainEmptyCapture, AnyOtherCollectorStillNamesItselfAndTheDirectory) {
  EXPECT_EQ(explain_empty_capture(empty_of("custom"), {}),
            "empty capture: custom recorded nothing under /results/trial_0/custom");
}

}  // namespace
}  // namespace aorta::detail
