// `--collect a,b`: replaces the recipe's list, keeps surviving option blocks, re-validates.
#include "aorta/recipe.hpp"

#include "option_test_support.hpp"

#include "aorta/collector.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace {

using aorta::apply_collect_override;
using aorta::recipe_error;
using aorta::testing_support::thrown;
using ::testing::HasSubstr;
using ::testing::StartsWith;

aorta::recipe load(const std::string& text) {
  return aorta::load_recipe_from_string(text, "recipe.yaml");
}

std::vector<std::string> names(const aorta::recipe& r) {
  std::vector<std::string> out;
  for (const auto& request : r.collect) out.push_back(request.name);
  return out;
}

const std::string rocprof_recipe = "schema_version: 1\n"
                                   "collect:\n"
                                   "  rocprof:\n"
                                   "    trace: \"kernel,hip\"\n";

TEST(CollectOverride, ReplacesTheListAndDropsOptionsOfCollectorsNotKept) {
  auto r = load(rocprof_recipe);
  apply_collect_override(r, "proton");
  ASSERT_EQ(names(r), std::vector<std::string>{"proton"});
  EXPECT_TRUE(r.collect[0].options.empty());
  EXPECT_EQ(r.collect[0].where.to_string(), "--collectors");
}

TEST(CollectOverride, KeepsTheOptionBlockOfASurvivingCollector) {
  auto r = load(rocprof_recipe);
  apply_collect_override(r, " numerics , ,rocprof,numerics,");
  ASSERT_EQ(names(r), (std::vector<std::string>{"numerics", "rocprof"}));
  EXPECT_EQ(r.collect[1].options.at("trace").text, "kernel,hip");
  EXPECT_EQ(r.collect[1].options.at("trace").where.to_string(), "recipe.yaml:4:12");
}

TEST(CollectOverride, EmptyListIsRefusedAndTheRecipeIsUntouched) {
  auto r = load(rocprof_recipe);
  for (const std::string empty : {"", " , ,"}) {
    const auto e = thrown<recipe_error>([&] { apply_collect_override(r, empty); });
    ASSERT_TRUE(e);
    std::string valid;
    for (const auto& name : aorta::collector_names()) valid += (valid.empty() ? "" : ", ") + name;
    EXPECT_THAT(e->what(), HasSubstr("names no collector; valid: [" + valid + "]."));
  }
  EXPECT_EQ(names(r), std::vector<std::string>{"rocprof"});
}

TEST(CollectOverride, RocprofAndProtonWithoutOptionsIsRefused) {
  auto r = load("schema_version: 1\n");
  const auto e = thrown<recipe_error>([&] { apply_collect_override(r, "rocprof,proton"); });
  ASSERT_TRUE(e);
  EXPECT_THAT(e->what(), StartsWith("--collectors rocprof,proton: rocprof and proton with backend: "
                                    "auto (which resolves to rocprofiler or roctracer on AMD)"));
  EXPECT_TRUE(r.collect.empty());
}

TEST(CollectOverride, RocprofAndProtonIsAcceptedWhenTheRecipePinsInstrumentation) {
  auto r = load("schema_version: 1\ncollect:\n  proton: {backend: instrumentation}\n");
  apply_collect_override(r, "rocprof,proton");
  ASSERT_EQ(names(r), (std::vector<std::string>{"rocprof", "proton"}));
  EXPECT_EQ(r.collect[1].options.at("backend").text, "instrumentation");
}

TEST(CollectOverride, ConflictFromARecipeOptionNamesWhereItCameFrom) {
  auto r = load("schema_version: 1\ncollect:\n  proton: {backend: cupti}\n");
  const auto e = thrown<recipe_error>([&] { apply_collect_override(r, "proton,ncu"); });
  ASSERT_TRUE(e);
  EXPECT_THAT(e->what(), StartsWith("--collectors proton,ncu: ncu and proton with backend: cupti"));
  EXPECT_THAT(e->what(), HasSubstr("(the option proton.backend comes from recipe.yaml:3:21)"));
}

TEST(CollectOverride, UnknownNameIsRefusedWithASuggestion) {
  auto r = load("schema_version: 1\n");
  const auto e = thrown<recipe_error>([&] { apply_collect_override(r, "callgrnd"); });
  ASSERT_TRUE(e);
  EXPECT_THAT(e->what(), StartsWith("--collectors callgrnd: unknown collector(s) [callgrnd]"));
  EXPECT_THAT(e->what(), HasSubstr("Did you mean 'callgrind'?"));
}

}  // namespace
