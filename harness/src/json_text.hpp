// The one way aorta reads and writes JSON text, so that input it did not produce (a profiler's
// file, a result.json someone edited, bytes a payload printed) can never crash it: reading has a
// nesting limit, writing never throws on invalid UTF-8.
#pragma once

#include "bounded_input.hpp"

#include <nlohmann/json.hpp>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <istream>
#include <stdexcept>
#include <string>
#include <string_view>

namespace aorta::detail {

// Deepest nesting of arrays and objects aorta reads. No profiler or aorta file nests beyond ~10
// levels; the limit exists because copying, printing and destroying a parsed document recurse
// once per level, and a hostile file nested 10^6 deep would overflow the stack.
inline constexpr int max_json_depth = 512;

// Most values (arrays, objects, strings, numbers, ...) one parsed document may hold: the DOM costs
// ~16 bytes a value plus its text, so this bounds a document's memory whatever its size (a 64 MiB
// file of `[0,0,...]` would otherwise be ~30 M values). aorta's own files hold a few thousand.
inline constexpr std::size_t max_json_values = std::size_t{1} << 22;

// A JSON text that cannot be read: not JSON, a number out of range (1e400), or nested deeper than
// max_json_depth. what() says which, without the file (callers name it); byte is 1-based, 0 when
// the failure has no single position.
class json_input_error : public input_error {
public:
  json_input_error(const std::string& message, std::size_t byte)
      : input_error(message), m_byte(byte) {}
  [[nodiscard]] std::size_t byte() const noexcept { return m_byte; }

private:
  std::size_t m_byte;
};

// Throws json_input_error unless `text` is strict JSON within max_json_depth and max_json_values;
// builds nothing. A reader with its own SAX handler checks the text with it first.
void check_json_text(std::string_view text);

// Strict JSON (no comments, no trailing commas) within max_json_depth and max_json_values,
// checked as the text is parsed, before any value is built. Throws json_input_error.
[[nodiscard]] nlohmann::json parse_json(std::istream& in);
[[nodiscard]] nlohmann::json parse_json(std::string_view text);

// The JSON document in `file` (a baseline, a result.json, a rank's record): opened through the
// bounded input layer (a regular file of at most `max_bytes`), then parse_json. Throws
// input_error naming the file when it cannot be read or is too large, and json_input_error
// (without the file: callers say which file and what to do) when its text is not JSON within the
// limits.
[[nodiscard]] nlohmann::json read_json_file(const std::filesystem::path& file,
                                            std::uint64_t max_bytes = max_json_file_bytes);

// JSON text of `value` (indented when indent >= 0). Strings that are not valid UTF-8 (a payload's
// argv, a kernel name in some other encoding) have each bad byte replaced by U+FFFD instead of
// throwing, so a record is always written.
[[nodiscard]] std::string dump_json(const nlohmann::json& value, int indent = -1);

}  // namespace aorta::detail
