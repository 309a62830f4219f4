// JSON in and out of aorta: bounded nesting, numbers out of range, bytes that are not UTF-8
// (issue 10, findings 3-6).
#include "aorta/trial_record.hpp"
#include "json_text.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace {

namespace fs = std::filesystem;
using aorta::detail::json_input_error;
using aorta::detail::max_json_depth;
using aorta::detail::parse_json;
using ::testing::HasSubstr;

std::string nested(int depth) {
  return std::string(static_cast<std::size_t>(depth), '[') +
         std::string(static_cast<std::size_t>(depth), ']');
}

std::string parse_error(const std::string& text) {
  try {
    (void)parse_json(text);
  } catch (const json_input_error& e) {
    return e.what();
  }
  return "parsed";
}

TEST(JsonText, NestingUpToTheLimitIsRead) {
  EXPECT_TRUE(parse_json(nested(max_json_depth)).is_array());
}

TEST(JsonText, DeeperNestingIsRefusedNotRecursedInto) {
  EXPECT_THAT(parse_error(nested(max_json_depth + 1)), HasSubstr("nested deeper than 512 levels"));
  EXPECT_THAT(parse_error(nested(1'000'000)), HasSubstr("max_json_depth"));
  std::string objects;
  for (int i = 0; i < 100'000; ++i) objects += "{\"m\":";
  objects += "1" + std::string(100'000, '}');
  EXPECT_THAT(parse_error(objects), HasSubstr("nested deeper"));
}

TEST(JsonText, NumberOutOfRangeIsAnInputError) {
  EXPECT_THAT(parse_error("{\"t\": 1e400}"), HasSubstr("number overflow"));
  std::istringstream stream("[-1e400]");
  EXPECT_THROW((void)parse_json(stream), json_input_error);
}

TEST(JsonText, StrictJsonRefusesTrailingCommaWithItsByte) {
  try {
    (void)parse_json("{\"a\": 1,}");
    FAIL() << "a trailing comma was accepted";
  } catch (const json_input_error& e) {
    EXPECT_EQ(e.byte(), 9U);
  }
}

TEST(JsonText, DumpReplacesInvalidUtf8) {
  const nlohmann::json value = {{"name", "bad\xff\xfe"
                                         "name"}};
  EXPECT_EQ(aorta::detail::dump_json(value), "{\"name\":\"bad\xEF\xBF\xBD\xEF\xBF\xBDname\"}");
}

// Finding 5: every text field of a record may hold bytes that are not UTF-8; the record is still
// written, and reads back.
TEST(JsonText, ResultJsonIsWrittenWhateverTheBytes) {
  aorta::trial_record record;
  const std::string bad = "x\xff\xfe\xc3";
  record.recipe_path = "recipe_" + bad + ".yaml";
  record.ticket = bad;
  record.command = {"payload", bad};
  record.argv = {"payload", bad};
  record.reason = "payload exited 2 (payload: \"" + bad + "\")";
  record.notes = {bad};
  record.metrics.values["rocprof_top_kernel"] = bad;
  record.metrics.kernels.push_back({bad, 1, 1.0, "rocprof"});
  record.checks.push_back({"count(" + bad + ") == 1", false, "== 1", bad, bad});
  const fs::path file = fs::temp_directory_path() / "aorta_json_text_result.json";
  aorta::write_result_json(file, record);
  std::ifstream in(file);
  const auto read = aorta::trial_record_from_json(parse_json(in));
  EXPECT_EQ(read.ticket, "x\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD");
  EXPECT_EQ(read.argv.size(), 2U);
  fs::remove(file);
}

}  // namespace
