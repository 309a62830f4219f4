// json_pretty_writer prints the bytes document_text's dump prints (the report's report.json is
// written with it, issue 21): documents built here, with the awkward values a report can hold, are
// replayed into the writer value by value and compared with nlohmann's dump of the same DOM.
#include "json_pretty_writer.hpp"
#include "json_text.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstdint>
#include <limits>
#include <sstream>
#include <string>

namespace {

using aorta::detail::json_pretty_writer;
using json = nlohmann::json;

// Walks `value` into the writer; below `whole_from_depth` each value goes in as one DOM (value()),
// the way the report passes on what a sweep wrote.
void replay(const json& value, json_pretty_writer& out, int depth, int whole_from_depth) {
  if (depth >= whole_from_depth) {
    out.value(value);
    return;
  }
  if (value.is_object()) {
    out.begin_object();
    for (const auto& [key, member] : value.items()) {
      out.key(key);
      replay(member, out, depth + 1, whole_from_depth);
    }
    out.end();
  } else if (value.is_array()) {
    out.begin_array();
    for (const auto& item : value) replay(item, out, depth + 1, whole_from_depth);
    out.end();
  } else if (value.is_string()) {
    out.string(value.get<std::string>());
  } else if (value.is_number_unsigned()) {
    out.number(value.get<std::uint64_t>());
  } else if (value.is_number()) {
    out.number(value.get<double>());
  } else if (value.is_null()) {
    out.null();
  } else {
    out.value(value);
  }
}

std::string written(const json& document, int whole_from_depth) {
  std::ostringstream text;
  json_pretty_writer out(text);
  replay(document, out, 0, whole_from_depth);
  out.finish();
  return text.str();
}

json awkward_document() {
  json names = json::object();
  for (const char* name : {"plain", "quo\"te", "back\\slash", "ctl\x01\x1f tab\t nl\n",
                           "\xc3\xa9t\xc3\xa9 \xf0\x9f\x9a\x80", "bad \xff\xfe utf8 \xc3",
                           "looks like \": {\n  \"", ""}) {
    names[name] = {{"mean", 0.1 + 0.2}, {"min", 5e-324}, {"max", 1e300}, {"n", 3u}};
  }
  json document = {
      {"schema", "aorta-matrix"},
      {"empty_object", json::object()},
      {"empty_array", json::array()},
      {"nested_empty", {json::array(), json::object(), {json::array()}}},
      {"numbers",
       {0.0, -0.0, 1000.0, 1.0 / 3.0, std::numeric_limits<double>::quiet_NaN(),
        -std::numeric_limits<double>::infinity(), std::numeric_limits<std::uint64_t>::max(), 0u}},
      {"nulls", {nullptr, json::object({{"k", nullptr}})}},
      {"flags", {true, false}},
      {"cells", {{{"name", "bad \xff"}, {"metrics_summary", names}}, json::object()}},
  };
  return document;
}

TEST(JsonPrettyWriter, PrintsTheDumpsBytesValueByValue) {
  const json document = awkward_document();
  EXPECT_EQ(written(document, 100), aorta::detail::dump_json(document, 2));
}

TEST(JsonPrettyWriter, PrintsWholeDomValuesAtAnyDepth) {
  const json document = awkward_document();
  for (int depth = 0; depth < 6; ++depth) {
    EXPECT_EQ(written(document, depth), aorta::detail::dump_json(document, 2)) << depth;
  }
}

TEST(JsonPrettyWriter, WritesALargeDocumentInChunksWithoutLosingBytes) {
  json document = json::object();
  for (int i = 0; i < 20000; ++i) {
    document["metric_" + std::to_string(i)] = {{"mean", i / 7.0}, {"n", 1u}};
  }
  EXPECT_EQ(written(document, 100), aorta::detail::dump_json(document, 2));
}

}  // namespace
