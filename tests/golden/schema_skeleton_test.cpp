// The golden schema checker itself: a test that compares skeletons must be able to fail.
#include "schema_skeleton.hpp"

#include <gtest/gtest.h>

#include <algorithm>

namespace aorta::golden {
namespace {

using nlohmann::json;

skeleton of(const std::vector<json>& documents, const rules& rules = {}) {
  skeleton result;
  for (const auto& document : documents) add_document(result, document, rules);
  return result;
}

golden_file golden_of(const std::vector<json>& documents, const std::string& rule_lines = "") {
  const golden_file rules_only = parse_golden(rule_lines);
  return parse_golden(render_golden(rules_only.header, of(documents, rules_only.rules)));
}

std::vector<std::string> compare(const golden_file& golden, const std::vector<json>& documents) {
  return differences(golden, of(documents, golden.rules));
}

bool has(const std::vector<std::string>& lines, const std::string& text) {
  return std::find(lines.begin(), lines.end(), text) != lines.end();
}

const json trial = json::parse(R"({"schema": "aorta-result", "schema_version": 1,
  "trial": {"checks": [{"passed": true, "actual": "3"}], "exit": 0},
  "metrics": {"a.b": 1, "c": "x"}})");

TEST(GoldenSchema, TheSameShapeMatches) {
  const auto golden = golden_of({trial}, "@map metrics\n");
  EXPECT_TRUE(compare(golden, {trial}).empty());
}

TEST(GoldenSchema, ARenamedKeyIsAnAddedAndARemovedKey) {
  const auto golden = golden_of({trial});
  json renamed = trial;
  renamed["trial"]["checks"][0].erase("passed");
  renamed["trial"]["checks"][0]["ok"] = true;
  const auto found = compare(golden, {renamed});
  EXPECT_TRUE(has(found, "key trial.checks[].ok added (boolean)"));
  EXPECT_TRUE(has(found, "key trial.checks[].passed removed (was boolean)"));
  EXPECT_EQ(found.size(), 2U);
}

TEST(GoldenSchema, ATypeChangeNamesBothTypes) {
  const auto golden = golden_of({trial});
  json changed = trial;
  changed["trial"]["exit"] = "0";
  EXPECT_EQ(compare(golden, {changed}),
            std::vector<std::string>{"key trial.exit changed integer -> string"});
  changed["trial"]["exit"] = 0.5;
  EXPECT_EQ(compare(golden, {changed}),
            std::vector<std::string>{"key trial.exit changed integer -> float"});
}

TEST(GoldenSchema, ArrayElementsAreTheUnionAndAnEmptyArrayMissesNothing) {
  const json two = json::parse(R"({"rows": [{"a": 1}, {"b": "x"}]})");
  const auto golden = golden_of({two});
  EXPECT_EQ(golden.body.types.count("rows[].a"), 1U);
  EXPECT_EQ(golden.body.types.count("rows[].b"), 1U);
  EXPECT_TRUE(compare(golden, {json::parse(R"({"rows": []})")}).empty());
  EXPECT_EQ(compare(golden, {json::parse(R"({"rows": [{"a": 2}]})")}),
            std::vector<std::string>{"key rows[].b removed (was string)"});
}

TEST(GoldenSchema, MapMembersShareOnePath) {
  const auto golden = golden_of({trial}, "@map metrics\n");
  EXPECT_EQ(golden.body.types.at("metrics.*"), (type_set{"integer", "string"}));
  EXPECT_TRUE(compare(golden, {json::parse(R"({"schema": "aorta-result", "schema_version": 1,
    "trial": {"checks": [], "exit": 1}, "metrics": {"other": 2}})")})
                  .empty());
  // Without the @map rule each metric name would be a key of its own.
  EXPECT_TRUE(has(compare(golden_of({trial}), {json::parse(R"({"schema": "aorta-result",
    "schema_version": 1, "trial": {"checks": [], "exit": 1}, "metrics": {"other": 2}})")}),
                  "key metrics.other added (integer)"));
}

TEST(GoldenSchema, OptionalKeysMayBeAbsentAndExtraTypesAreAllowed) {
  const auto golden = golden_of({trial}, "@optional trial.exit\n@types trial.exit null\n");
  json absent = trial;
  absent["trial"].erase("exit");
  EXPECT_TRUE(compare(golden, {absent}).empty());
  json null_exit = trial;
  null_exit["trial"]["exit"] = nullptr;
  EXPECT_TRUE(compare(golden, {null_exit}).empty());
  EXPECT_TRUE(has(compare(golden_of({trial}), {absent}), "key trial.exit removed (was integer)"));
}

TEST(GoldenSchema, TheSchemaNameAndVersionArePinnedByValue) {
  const auto golden = golden_of({trial});
  json bumped = trial;
  bumped["schema_version"] = 2;
  EXPECT_EQ(compare(golden, {bumped}),
            std::vector<std::string>{"value of schema_version changed 1 -> 2"});
}

TEST(GoldenSchema, RegenerationKeepsCommentsAndRules) {
  const auto golden = golden_of({trial}, "# about\n@map metrics\n");
  const std::string text = render_golden(golden.header, golden.body);
  EXPECT_EQ(text.rfind("# about\n@map metrics\n", 0), 0U);
  EXPECT_NE(text.find("schema_version: integer = 1\n"), std::string::npos);
  EXPECT_NE(text.find("trial.checks[].passed: boolean\n"), std::string::npos);
  EXPECT_EQ(parse_golden(text).rules.maps, std::set<std::string>{"metrics"});
}

TEST(GoldenSchema, AMalformedLineIsRefusedWithItsNumber) {
  EXPECT_THROW((void)parse_golden("a: string\n@mapp x\n"), std::runtime_error);
  try {
    (void)parse_golden("a: string\nno colon here\n");
    FAIL();
  } catch (const std::runtime_error& failure) {
    EXPECT_NE(std::string(failure.what()).find("line 2"), std::string::npos);
  }
}

}  // namespace
}  // namespace aorta::golden
