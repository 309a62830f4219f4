// The collect: block: both shapes, value normalisation, the original's example recipes, and
// collector errors relabelled with the file position of the offending value.
#include "aorta/recipe.hpp"

#include "option_test_support.hpp"

#include "aorta/collector.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

namespace {

using aorta::load_recipe_from_string;
using aorta::recipe_error;
using aorta::testing_support::thrown;
using ::testing::HasSubstr;
using ::testing::StartsWith;

aorta::recipe load(const std::string& text) {
  return load_recipe_from_string(text, "recipe.yaml");
}

std::string failure(const std::string& text) {
  const auto e = thrown<recipe_error>([&] { (void)load(text); });
  return e ? e->what() : std::string{};
}

std::vector<std::string> names(const aorta::recipe& r) {
  std::vector<std::string> out;
  for (const auto& request : r.collect) out.push_back(request.name);
  return out;
}

const std::string fixtures = AORTA_FIXTURES_DIR "/recipes/";

TEST(RecipeCollect, ListFormDeduplicatesKeepingFirstSeen) {
  const auto r = load("schema_version: 1\ncollect: [numerics, callgrind, numerics]\n");
  EXPECT_EQ(names(r), (std::vector<std::string>{"numerics", "callgrind"}));
  EXPECT_TRUE(r.collect[0].options.empty());
  EXPECT_EQ(r.collect[0].where.to_string(), "recipe.yaml:2:11");
  EXPECT_EQ(r.collect[1].where.to_string(), "recipe.yaml:2:21");
  EXPECT_EQ(r.collect_location.to_string(), "recipe.yaml:2:1");
  EXPECT_TRUE(load("schema_version: 1\ncollect: []\n").collect.empty());
}

TEST(RecipeCollect, MappingFormWithoutOptions) {
  const auto r = load("schema_version: 1\ncollect:\n  callgrind:\n  numerics: {}\n");
  EXPECT_EQ(names(r), (std::vector<std::string>{"callgrind", "numerics"}));
  EXPECT_TRUE(r.collect[0].options.empty());
  EXPECT_TRUE(r.collect[1].options.empty());
  EXPECT_EQ(r.collect[0].where.to_string(), "recipe.yaml:3:3");
}

TEST(RecipeCollect, OptionValuesAreNormalisedToText) {
  const auto r = load("schema_version: 1\n"
                      "collect:\n"
                      "  rocprof:\n"
                      "    trace: [kernel, hip]\n"
                      "    stats: True\n"
                      "    kernel_include_regex: \"  Cijk|gemm \"\n"
                      "    summary_units: msec\n"
                      "    output_format: 'csv'\n");
  const auto& options = r.collect.at(0).options;
  EXPECT_EQ(options.at("trace").text, "kernel,hip");
  EXPECT_EQ(options.at("stats").text, "true");
  EXPECT_EQ(options.at("kernel_include_regex").text, "  Cijk|gemm ");
  EXPECT_EQ(options.at("summary_units").text, "msec");
  EXPECT_EQ(options.at("trace").where.to_string(), "recipe.yaml:4:12");
  const auto ncu =
      load("schema_version: 1\ncollect:\n  ncu: {launch_count: 5, launch_skip: 010}\n");
  EXPECT_EQ(ncu.collect.at(0).options.at("launch_count").text, "5");
  EXPECT_EQ(ncu.collect.at(0).options.at("launch_skip").text, "010");
  const auto quoted = load("schema_version: 1\ncollect:\n  callgrind: {cache_sim: \"TRUE\"}\n");
  EXPECT_EQ(quoted.collect.at(0).options.at("cache_sim").text, "TRUE");
}

TEST(RecipeCollect, ShapeErrors) {
  EXPECT_THAT(failure("schema_version: 1\ncollect: rocprof\n"),
              StartsWith("recipe.yaml:2:10: recipe.collect: expected a list of collector names "
                         "or a mapping of name to options, got 'rocprof'."));
  EXPECT_THAT(failure("schema_version: 1\ncollect:\n"),
              StartsWith("recipe.yaml:2:1: recipe.collect: expected a list"));
  EXPECT_THAT(failure("schema_version: 1\ncollect: [{proton: {}}]\n"),
              StartsWith("recipe.yaml:2:11: recipe.collect[0]: expected a collector name, got a "
                         "mapping."));
  EXPECT_THAT(failure("schema_version: 1\ncollect:\n  proton: env\n"),
              StartsWith("recipe.yaml:3:11: recipe.collect.proton: expected a mapping of options"));
  EXPECT_THAT(failure("schema_version: 1\ncollect:\n  proton:\n    backend: {name: cupti}\n"),
              StartsWith("recipe.yaml:4:14: recipe.collect.proton.backend: expected an option "
                         "value, got a mapping; nested mappings are not options."));
  EXPECT_THAT(failure("schema_version: 1\ncollect:\n  rocprof:\n    trace: [kernel, [hip]]\n"),
              StartsWith("recipe.yaml:4:21: recipe.collect.rocprof.trace: list items must be "
                         "plain values, got a list."));
  EXPECT_THAT(failure("schema_version: 1\ncollect:\n  proton:\n    backend:\n"),
              StartsWith("recipe.yaml:4:5: recipe.collect.proton.backend: has no value."));
  EXPECT_THAT(failure("schema_version: 1\ncollect:\n  proton: {}\n  proton: {}\n"),
              StartsWith("recipe.yaml:4:3: recipe.collect: key 'proton' appears twice (first on "
                         "line 3)."));
}

TEST(RecipeCollect, OptionErrorPointsAtTheValue) {
  const std::string message = failure("schema_version: 1\n"
                                      "mode: probe\n"
                                      "collect:\n"
                                      "  proton:\n"
                                      "    backend: rocprof\n");
  EXPECT_EQ(message,
            "recipe.yaml:5:14: recipe.collect.proton.backend: 'rocprof' is not a proton backend; "
            "allowed: auto, cupti, rocprofiler, roctracer, instrumentation. Fix: pick one of "
            "those (auto lets Proton choose).");
}

TEST(RecipeCollect, UnknownOptionAndUnknownCollectorPointAtTheirNodes) {
  EXPECT_THAT(failure("schema_version: 1\ncollect:\n  rocprof:\n    tarce: kernel\n"),
              StartsWith("recipe.yaml:4:12: recipe.collect.rocprof.tarce: unknown option(s) "
                         "[tarce]; valid: [trace,"));
  const std::string unknown = failure("schema_version: 1\ncollect: [rocprof, protn]\n");
  // The valid names are the registry's, whatever collectors it holds.
  std::string valid;
  for (const auto& name : aorta::collector_names()) valid += (valid.empty() ? "" : ", ") + name;
  EXPECT_THAT(unknown, StartsWith("recipe.yaml:2:20: recipe.collect.protn: unknown collector(s) "
                                  "[protn]; valid: [" + valid + "]. Did you mean 'proton'?"));
}

TEST(RecipeCollect, ConflictPointsAtTheBackendOrTheCollector) {
  EXPECT_THAT(
      failure("schema_version: 1\ncollect:\n  rocprof:\n  proton:\n    backend: roctracer\n"),
      StartsWith("recipe.yaml:5:14: recipe.collect.proton.backend: rocprof and proton "
                 "with backend: roctracer cannot run together"));
  EXPECT_THAT(failure("schema_version: 1\ncollect: [proton, rocprof]\n"),
              StartsWith("recipe.yaml:2:11: recipe.collect.proton: rocprof and proton with "
                         "backend: auto (which resolves to rocprofiler or roctracer on AMD)"));
  EXPECT_THAT(failure("schema_version: 1\ncollect: [ncu, callgrind]\n"),
              StartsWith("recipe.yaml:2:16: recipe.collect.callgrind: callgrind cannot run "
                         "together with the GPU collector(s) [ncu]"));
  EXPECT_NO_THROW((void)load("schema_version: 1\ncollect:\n  rocprof: {trace: kernel}\n"
                             "  proton: {backend: instrumentation}\n"));
}

TEST(RecipeCollect, OriginalExampleRecipesLoadUnchanged) {
  const auto matmul = aorta::load_recipe(fixtures + "torch-matmul.yaml");
  EXPECT_EQ(matmul.ticket, "PROFILING-ROCPROF-TORCH-MATMUL");
  EXPECT_EQ(matmul.timeout_seconds, 1800.0);
  ASSERT_EQ(matmul.mitigation_axis.size(), 1U);
  EXPECT_EQ(matmul.mitigation_axis.front().text, "none");
  ASSERT_EQ(names(matmul), std::vector<std::string>{"rocprof"});
  EXPECT_EQ(matmul.collect[0].options.at("trace").text, "kernel,hip");
  EXPECT_EQ(matmul.collect[0].options.at("stats").text, "true");
  EXPECT_EQ(matmul.collect[0].options.at("kernel_include_regex").text, "Cijk|gemm|matmul");

  for (const std::string name :
       {"triton-vecadd", "amd-roctracer", "amd-instrumentation", "amd-rocprofiler"}) {
    const auto r = aorta::load_recipe(fixtures + name + ".yaml");
    EXPECT_EQ(r.mode, "probe") << name;
    EXPECT_EQ(r.trials, 1) << name;
    EXPECT_EQ(r.env_passthrough_mode, "inherit") << name;
    ASSERT_EQ(names(r), std::vector<std::string>{"proton"}) << name;
    EXPECT_EQ(r.collect[0].options.at("context").text, "shadow") << name;
    EXPECT_EQ(r.collect[0].options.at("data").text, "tree") << name;
  }
  const auto rocprofiler = aorta::load_recipe(fixtures + "amd-rocprofiler.yaml");
  EXPECT_EQ(rocprofiler.collect[0].options.at("backend_mode").text, "pcsampling");
  EXPECT_EQ(rocprofiler.collect[0].options.at("backend_mode").where.to_string(),
            fixtures + "amd-rocprofiler.yaml:14:19");
}

TEST(RecipeCollect, JsonRecipesAreRead) {
  const auto r = aorta::load_recipe(fixtures + "natural.json");
  EXPECT_EQ(r.trials, 2);
  EXPECT_EQ(r.timeout_seconds, 30.5);
  ASSERT_EQ(names(r), std::vector<std::string>{"callgrind"});
  EXPECT_EQ(r.collect[0].options.at("cache_sim").text, "true");
  EXPECT_EQ(r.collect[0].options.at("toggle_collect").text, "solve");
  ASSERT_EQ(r.checks.size(), 1u);
  EXPECT_EQ(r.checks[0].expression, "count(solve) == 1");
  EXPECT_EQ(r.environment_exit_codes, std::vector<int>{2});
}

}  // namespace
