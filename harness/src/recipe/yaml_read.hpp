// Typed reads from yaml-cpp nodes that keep the 1-based file:line:column of every value, so each
// recipe error can point at the exact spot and say what was expected there.
#pragma once

#include "aorta/error.hpp"

#include <yaml-cpp/yaml.h>

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace aorta::detail {

// One `key: value` pair of a mapping. `value_at` falls back to the key's location when yaml-cpp
// gives the value no position (an empty value such as `trials:`).
struct map_entry {
  std::string key;
  YAML::Node value;
  source_location key_at;
  source_location value_at;
};

struct located_text {
  std::string text;
  source_location where;
};

[[nodiscard]] source_location location_of(const std::string& file, const YAML::Node& node);

// Throws recipe_error "<where>: <path>: <message>".
[[noreturn]] void fail_at(const source_location& where, std::string_view path,
                          const std::string& message);

// A plain (unquoted, untagged) scalar: the only kind that may be read as a number or boolean.
[[nodiscard]] bool is_plain_scalar(const YAML::Node& node);

// "nothing", "a list", "a mapping" or the scalar quoted, for "got ..." in messages.
[[nodiscard]] std::string describe(const YAML::Node& node);

// The pairs of a mapping, in document order; keys must be scalars and appear once.
[[nodiscard]] std::vector<map_entry>
mapping_entries(const std::string& file, const YAML::Node& mapping, std::string_view path);

[[nodiscard]] int read_integer(const map_entry& entry, std::string_view path, int minimum,
                               int maximum);
// A plain scalar integer (used for list items too).
[[nodiscard]] int read_integer_node(const YAML::Node& node, const source_location& where,
                                    std::string_view path, int minimum, int maximum);
[[nodiscard]] double read_positive_seconds(const map_entry& entry, std::string_view path);
[[nodiscard]] bool read_boolean(const map_entry& entry, std::string_view path);
// Any non-null scalar, as written.
[[nodiscard]] std::string read_text(const map_entry& entry, std::string_view path);
// A list of non-blank scalars; when `single_allowed`, one scalar counts as a list of one.
[[nodiscard]] std::vector<located_text> read_text_list(const std::string& file,
                                                       const map_entry& entry,
                                                       std::string_view path, bool single_allowed);

}  // namespace aorta::detail
