// JSON text printed the way document_text() prints a DOM (nlohmann's two-space pretty printing,
// invalid UTF-8 replaced), but one value at a time into a stream: a document of 10^5 entries
// (a report's matrix.json of 200,000 metrics) never exists as a DOM, which costs ~10x its text.
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

namespace aorta::detail {

// `text` as nlohmann prints a JSON string (quoted, escaped, bad bytes replaced by U+FFFD);
// `scratch` is reused for the rare text that needs escaping.
void append_json_string(std::string& out, std::string_view text, nlohmann::json& scratch);

// `value` as nlohmann prints it nested `depth` levels deep with indent 2: its own indented dump
// with every line after the first shifted right.
void append_nested_json(std::string& out, const nlohmann::json& value, int depth);

// The caller opens and closes containers and gives keys in the order a DOM would print them
// (sorted, for an object); the writer puts the separators, line breaks and indents. Text goes to
// the stream in chunks of ~64 KiB; finish() writes the rest.
class json_pretty_writer {
public:
  explicit json_pretty_writer(std::ostream& out);

  void begin_object();
  void begin_array();
  void end();  // of the innermost open object or array
  void key(std::string_view name);
  void string(std::string_view text);
  void number(double value);  // non-finite prints null, as nlohmann does
  void number(std::uint64_t value);
  void null();
  void value(const nlohmann::json& value);  // any DOM value, at the current depth
  void finish();

private:
  struct level {
    bool is_object = false;
    bool empty = true;
  };
  void before_value();
  void line_break();
  void flush_if_full();

  std::ostream& m_out;
  std::string m_buffer;
  nlohmann::json m_scratch;
  std::vector<level> m_levels;
  bool m_after_key = false;
};

}  // namespace aorta::detail
