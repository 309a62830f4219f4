// The report's result.json reader (record/result_reader.hpp) converts `metrics` and `kernels` as
// it parses instead of through a DOM; it must give the record, or the error, that
// trial_record_from_json(parse_json(text)) gives. Each text here is read both ways and compared:
// records by their written JSON, failures by type and message.
#include "aorta/error.hpp"
#include "aorta/trial_record.hpp"
#include "json_text.hpp"
#include "record/result_reader.hpp"

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

namespace {

// The record's JSON text, or "error: <message>" / "json error: <message>".
std::string outcome_through_dom(const std::string& text) {
  try {
    return aorta::detail::dump_json(
        aorta::to_json(aorta::trial_record_from_json(aorta::detail::parse_json(text))));
  } catch (const aorta::detail::json_input_error& failure) {
    return std::string("json error: ") + failure.what();
  } catch (const aorta::error& failure) {
    return std::string("error: ") + failure.what();
  }
}

std::string outcome_streamed(const std::string& text) {
  try {
    return aorta::detail::dump_json(aorta::to_json(aorta::detail::trial_record_from_text(text)));
  } catch (const aorta::detail::json_input_error& failure) {
    return std::string("json error: ") + failure.what();
  } catch (const aorta::error& failure) {
    return std::string("error: ") + failure.what();
  }
}

const std::vector<std::string>& documents() {
  static const std::vector<std::string> texts = {
      R"({"schema_version": 1, "verdict": "pass", "metrics": {"b": 2, "a": 1.5, "t": "x",
          "l": ["p", "q"], "n": null, "big": 18446744073709551615},
          "kernels": [{"name": "k", "launches": 3, "total_ms": 1.25, "collector": "c"},
                      {"name": "z", "launches": null, "total_ms": null, "collector": "d"}]})",
      R"({"metrics": {}, "kernels": []})",
      R"({"metrics": null, "kernels": null})",
      // Wrong types, where the first one met in the DOM's (sorted) order must be the one named.
      R"({"metrics": {"z": {"o": 1}, "b": [1, 2], "a": true}})",
      R"({"metrics": {"m": [["nested"]]}, "reason": 7})",
      R"({"kernels": [{"name": "ok"}, 5, {"name": 6}]})",
      R"({"kernels": [{"name": "ok", "launches": -1}]})",
      R"({"kernels": [[{"name": "in an array"}]], "metrics": {"x": {}}})",
      R"({"metrics": [1, 2]})",
      R"({"kernels": {"name": "not a list"}})",
      R"({"metrics": "text", "kernels": "text"})",
      // Duplicate keys: the later one is the DOM's.
      R"({"metrics": {"a": {"bad": 1}, "a": 2}})",
      R"({"metrics": {"a": 2, "a": {"bad": 1}}})",
      R"({"metrics": {"a": 2, "a": null}})",
      R"({"metrics": {"a": 1}, "metrics": {"b": 2}})",
      R"({"metrics": {"a": {"bad": 1}}, "metrics": null})",
      R"({"metrics": null, "metrics": {"a": 3}})",
      R"({"kernels": [5], "kernels": [{"name": "second"}]})",
      R"({"kernels": [{"name": "first"}], "kernels": "not a list"})",
      // The keys only count at the top level.
      R"({"cell": {"name": "c", "metrics": {"a": {}}, "kernels": [1]}, "metrics": {"x": 1}})",
      R"([{"metrics": {"a": 1}}])",
      R"("metrics")",
      R"({"schema": "aorta-matrix", "metrics": {"a": {}}})",
      R"({"metrics": {"a": 1}, "kernels": [{"name": "k"}], "extra": {"metrics": [{}]}})",
      // Not JSON, or beyond the limits: the same json_input_error.
      R"({"metrics": {"a": 1,}})",
      R"({"metrics": {"a": 1e400}})",
      std::string(600, '[') + std::string(600, ']'),
      "",
  };
  return texts;
}

TEST(ResultReader, GivesTheRecordOrTheErrorOfTheDom) {
  for (const auto& text : documents()) {
    EXPECT_EQ(outcome_streamed(text), outcome_through_dom(text)) << text;
  }
}

TEST(ResultReader, ReadsAWrittenRecordBackTheSame) {
  aorta::trial_record record;
  record.verdict = aorta::verdict::fail;
  record.reason = "why";
  record.metrics.values = {{"m.\"q\"", 1.0 / 3.0}, {"n", std::int64_t{-4}}, {"s", std::string("t")}};
  record.metrics.kernels = {{"k\xff", 2, 0.5, "c"}, {"j", std::nullopt, 1e-300, "d"}};
  record.cell = aorta::cell_coordinates{"cell", 1, 2, {"none"}, "none"};
  const std::string text = aorta::detail::dump_json(aorta::to_json(record), 2);
  EXPECT_EQ(outcome_streamed(text), outcome_through_dom(text));
  EXPECT_EQ(outcome_streamed(text), aorta::detail::dump_json(aorta::to_json(
                                        aorta::trial_record_from_json(aorta::to_json(record)))));
}

// Whole-number fields holding what no count or rank can be: a number past 2^64 (parsed as a
// float), a negative count, a float rank. nlohmann's get<>() converted them silently (a float
// past the range is undefined behaviour; the fuzz target result_json found it under UBSan).
// Each is refused with the key named, the same both ways.
TEST(ResultReader, WholeNumbersOutOfRangeAreRefusedNamingTheKey) {
  const std::string head = R"({"schema":"aorta-result","schema_version":1,"verdict":"pass",)";
  const std::vector<std::pair<std::string, std::string>> cases = {
      {R"("kernels":[{"name":"k","launches":18446744073709551651,"total_ms":1,"collector":"c"}]})",
       "launches"},
      {R"("kernels":[{"name":"k","launches":-1,"total_ms":1,"collector":"c"}]})", "launches"},
      {R"("kernels":[{"name":"k","launches":2.5,"total_ms":1,"collector":"c"}]})", "launches"},
      {R"("ranks":[{"rank":1e300,"collector":"c"}]})", "rank"},
      {R"("ranks":[{"rank":0,"collector":"c","launches":-3}]})", "launches"},
      {R"("ranks":[{"rank":0,"collector":"c","ir":1e20}]})", "ir"},
  };
  for (const auto& [body, key] : cases) {
    const std::string text = head + body;
    const std::string streamed = outcome_streamed(text);
    EXPECT_EQ(streamed.rfind("error: ", 0), 0U) << text << " -> " << streamed;
    EXPECT_NE(streamed.find("'" + key + "'"), std::string::npos) << streamed;
    EXPECT_NE(streamed.find("whole number"), std::string::npos) << streamed;
    EXPECT_EQ(streamed, outcome_through_dom(text)) << text;
  }
}

}  // namespace
