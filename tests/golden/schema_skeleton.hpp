// The key/type skeleton of JSON documents and its comparison with a golden file (tests/golden/):
// what pins the on-disk shape of each file aorta writes, independently of aorta's own readers.
#pragma once

#include <nlohmann/json.hpp>

#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace aorta::golden {

using type_set = std::set<std::string>;

// Hand-written rules of a golden file ('@' lines), kept when the body is regenerated.
struct rules {
  std::set<std::string> maps;                 // @map PATH: free-form keys, members under PATH.*
  std::set<std::string> optional;             // @optional PATH: may be absent
  std::map<std::string, type_set> extra;      // @types PATH T|T: allowed beyond what runs show
};

// Every key path of one or more documents with the JSON types seen there: `a.b` for a key,
// `a[]` for the elements of an array (the union of all elements), `a.*` for the members of a map.
struct skeleton {
  std::map<std::string, type_set> types;
  std::set<std::string> filled;                             // arrays and maps with a member
  std::map<std::string, std::set<std::string>> values;      // of the pinned top-level keys
};

struct golden_file {
  std::vector<std::string> header;  // the '#' and '@' lines, verbatim
  golden::rules rules;
  golden::skeleton body;
};

// Top-level keys whose values, not only types, a golden pins.
inline const std::set<std::string> pinned_keys{"schema", "schema_version"};

// null, boolean, integer, float, string, array or object.
[[nodiscard]] std::string type_name(const nlohmann::json& value);

// Adds `document` (an object) to `into`; objects at a path of `rules.maps` count as maps.
void add_document(skeleton& into, const nlohmann::json& document, const golden::rules& rules);

// Throws std::runtime_error naming the line for a line that is neither comment, rule nor entry.
[[nodiscard]] golden_file parse_golden(std::string_view text);

// The header lines, then one `path: type|type` line per path (`= value` for pinned keys).
[[nodiscard]] std::string render_golden(const std::vector<std::string>& header,
                                        const skeleton& body);

// What differs, one readable line each ("key trial.foo added (string)", "key x removed (was
// integer)", "key y changed integer -> string"); empty when `actual` matches.
[[nodiscard]] std::vector<std::string> differences(const golden_file& golden,
                                                   const skeleton& actual);

}  // namespace aorta::golden
