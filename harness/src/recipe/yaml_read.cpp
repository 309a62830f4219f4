#include "recipe/yaml_read.hpp"

#include "option_text.hpp"
#include "text_trim.hpp"

#include <fmt/format.h>

#include <charconv>
#include <cmath>
#include <unordered_map>

namespace aorta::detail {

source_location location_of(const std::string& file, const YAML::Node& node) {
  const YAML::Mark mark = node.Mark();
  if (mark.is_null() || mark.line < 0) return source_location{file, 0, 0};
  // yaml-cpp counts from 0; editors and compilers count from 1.
  return source_location{file, mark.line + 1, mark.column + 1};
}

void fail_at(const source_location& where, std::string_view path, const std::string& message) {
  const std::string prefix = where.to_string();
  throw recipe_error(prefix.empty() ? fmt::format("{}: {}", path, message)
                                    : fmt::format("{}: {}: {}", prefix, path, message));
}

bool is_plain_scalar(const YAML::Node& node) {
  return node.IsScalar() && node.Tag() == "?";
}

std::string describe(const YAML::Node& node) {
  if (!node.IsDefined() || node.IsNull()) return "nothing";
  if (node.IsSequence()) return "a list";
  if (node.IsMap()) return "a mapping";
  return is_plain_scalar(node) ? fmt::format("'{}'", node.Scalar())
                               : fmt::format("the string \"{}\"", node.Scalar());
}

std::vector<map_entry> mapping_entries(const std::string& file, const YAML::Node& mapping,
                                       std::string_view path) {
  std::vector<map_entry> entries;
  std::unordered_map<std::string, int> first_line;
  for (auto it = mapping.begin(); it != mapping.end(); ++it) {
    const source_location key_at = location_of(file, it->first);
    if (!it->first.IsScalar()) {
      fail_at(key_at, path,
              fmt::format("keys must be plain names, got {}. Fix: write "
                          "`name: value` pairs.",
                          describe(it->first)));
    }
    std::string key = it->first.Scalar();
    const auto [seen, inserted] = first_line.emplace(key, key_at.line);
    if (!inserted) {
      fail_at(key_at, path,
              fmt::format("key '{}' appears twice (first on line {}). Fix: keep "
                          "one of them.",
                          key, seen->second));
    }
    source_location value_at = location_of(file, it->second);
    // yaml-cpp places an empty value at the start of the next line; the key is the better spot.
    if (value_at.line == 0 || it->second.IsNull()) value_at = key_at;
    entries.push_back(map_entry{std::move(key), it->second, key_at, value_at});
  }
  return entries;
}

int read_integer_node(const YAML::Node& node, const source_location& where, std::string_view path,
                      int minimum, int maximum) {
  const std::string range = fmt::format("an integer from {} to {}", minimum, maximum);
  if (!is_plain_scalar(node)) {
    fail_at(where, path,
            fmt::format("expected {}, got {}. Fix: write a bare number without "
                        "quotes.",
                        range, describe(node)));
  }
  const std::string& text = node.Scalar();
  const char* begin = text.data() + (text.starts_with('+') ? 1 : 0);
  long long value = 0;
  const auto [end, ec] = std::from_chars(begin, text.data() + text.size(), value);
  if (ec != std::errc{} || end != text.data() + text.size() || value < minimum || value > maximum) {
    fail_at(where, path,
            fmt::format("expected {}, got '{}'. Fix: use a whole number in that "
                        "range.",
                        range, text));
  }
  return static_cast<int>(value);
}

int read_integer(const map_entry& entry, std::string_view path, int minimum, int maximum) {
  return read_integer_node(entry.value, entry.value_at, path, minimum, maximum);
}

double read_positive_seconds(const map_entry& entry, std::string_view path) {
  const YAML::Node& node = entry.value;
  double value = 0;
  bool ok = is_plain_scalar(node);
  if (ok) {
    const std::string& text = node.Scalar();
    const char* begin = text.data() + (text.starts_with('+') ? 1 : 0);
    const auto [end, ec] = std::from_chars(begin, text.data() + text.size(), value);
    ok = ec == std::errc{} && end == text.data() + text.size() && std::isfinite(value) && value > 0;
  }
  if (!ok) {
    fail_at(entry.value_at, path,
            fmt::format("expected a number of seconds > 0, got {}. Fix: write e.g. {}: 1800 "
                        "(no quotes, no unit).",
                        describe(node), entry.key));
  }
  return value;
}

bool read_boolean(const map_entry& entry, std::string_view path) {
  const auto value = entry.value.IsScalar() ? parse_bool_text(entry.value.Scalar()) : std::nullopt;
  if (!value) {
    fail_at(entry.value_at, path,
            fmt::format("expected a boolean, got {}; allowed: true, false (also yes/no, on/off, "
                        "1/0). Fix: write {}: true or {}: false.",
                        describe(entry.value), entry.key, entry.key));
  }
  return *value;
}

std::string read_text(const map_entry& entry, std::string_view path) {
  if (!entry.value.IsScalar()) {
    fail_at(entry.value_at, path,
            fmt::format("expected a string, got {}. Fix: give {} a single value.",
                        describe(entry.value), entry.key));
  }
  return entry.value.Scalar();
}

std::vector<located_text> read_text_list(const std::string& file, const map_entry& entry,
                                         std::string_view path, bool single_allowed) {
  const std::string shape =
      single_allowed ? "a string or a list of strings" : "a non-empty list of strings";
  std::vector<YAML::Node> items;
  if (entry.value.IsSequence()) {
    for (const auto& item : entry.value) items.push_back(item);
  } else if (single_allowed && entry.value.IsScalar()) {
    items.push_back(entry.value);
  } else {
    fail_at(entry.value_at, path,
            fmt::format("expected {}, got {}. Fix: write {}: [a, b].", shape, describe(entry.value),
                        entry.key));
  }
  if (items.empty()) {
    fail_at(entry.value_at, path,
            fmt::format("is an empty list; expected {}. Fix: name at least one entry, or remove "
                        "the key.",
                        shape));
  }
  std::vector<located_text> texts;
  for (std::size_t i = 0; i < items.size(); ++i) {
    const source_location where =
        location_of(file, items[i]).line != 0 ? location_of(file, items[i]) : entry.value_at;
    const std::string item_path =
        entry.value.IsSequence() ? fmt::format("{}[{}]", path, i) : std::string(path);
    if (!items[i].IsScalar() || trim(items[i].Scalar()).empty()) {
      fail_at(where, item_path,
              fmt::format("expected a non-blank string, got {}. Fix: write "
                          "the entry as text, or remove it.",
                          describe(items[i])));
    }
    texts.push_back(located_text{items[i].Scalar(), where});
  }
  return texts;
}

}  // namespace aorta::detail
