#include "schema_skeleton.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <sstream>
#include <stdexcept>

namespace aorta::golden {
namespace {

std::string joined(const type_set& types) { return fmt::format("{}", fmt::join(types, "|")); }

type_set split_types(std::string_view text) {
  type_set types;
  std::size_t start = 0;
  while (start <= text.size()) {
    const auto bar = text.find('|', start);
    const auto word = text.substr(start, bar == std::string_view::npos ? text.npos : bar - start);
    if (!word.empty()) types.emplace(word);
    if (bar == std::string_view::npos) break;
    start = bar + 1;
  }
  return types;
}

std::string trimmed(std::string_view text) {
  const auto first = text.find_first_not_of(" \t\r");
  if (first == std::string_view::npos) return {};
  const auto last = text.find_last_not_of(" \t\r");
  return std::string(text.substr(first, last - first + 1));
}

void walk(skeleton& into, const nlohmann::json& value, const std::string& path,
          const rules& rules) {
  into.types[path].insert(type_name(value));
  if (value.is_array()) {
    if (!value.empty()) into.filled.insert(path);
    for (const auto& element : value) walk(into, element, path + "[]", rules);
  } else if (value.is_object()) {
    const bool map = rules.maps.contains(path);
    if (map && !value.empty()) into.filled.insert(path);
    for (const auto& [key, member] : value.items()) {
      walk(into, member, path.empty() ? key : path + "." + (map ? "*" : key), rules);
    }
  }
}

// Where `path` hangs: its parent's path and whether it is a key of an object (else an element or
// a map member, expected only where the parent has one).
struct parent_link {
  std::string path;
  bool object_key = true;
};

parent_link parent_of(const std::string& path) {
  if (path.ends_with("[]")) return {path.substr(0, path.size() - 2), false};
  if (path.ends_with(".*")) return {path.substr(0, path.size() - 2), false};
  const auto dot = path.rfind('.');
  return {dot == std::string::npos ? std::string() : path.substr(0, dot), true};
}

bool expected_in(const skeleton& actual, const std::string& path) {
  const parent_link parent = parent_of(path);
  if (!parent.object_key) return actual.filled.contains(parent.path);
  if (parent.path.empty()) return true;
  const auto found = actual.types.find(parent.path);
  return found != actual.types.end() && found->second.contains("object");
}

}  // namespace

std::string type_name(const nlohmann::json& value) {
  switch (value.type()) {
  case nlohmann::json::value_t::null: return "null";
  case nlohmann::json::value_t::boolean: return "boolean";
  case nlohmann::json::value_t::number_integer:
  case nlohmann::json::value_t::number_unsigned: return "integer";
  case nlohmann::json::value_t::number_float: return "float";
  case nlohmann::json::value_t::string: return "string";
  case nlohmann::json::value_t::array: return "array";
  case nlohmann::json::value_t::object: return "object";
  default: return "unknown";
  }
}

void add_document(skeleton& into, const nlohmann::json& document, const rules& rules) {
  if (!document.is_object()) {
    throw std::runtime_error("the document is " + type_name(document) + ", not an object");
  }
  for (const auto& [key, member] : document.items()) {
    walk(into, member, key, rules);
    if (pinned_keys.contains(key)) into.values[key].insert(member.dump());
  }
}

golden_file parse_golden(std::string_view text) {
  golden_file golden;
  std::istringstream lines{std::string(text)};
  std::string line;
  int number = 0;
  while (std::getline(lines, line)) {
    ++number;
    const std::string content = trimmed(line);
    if (content.empty()) continue;
    if (content.front() == '#') {
      golden.header.push_back(line);
      continue;
    }
    if (content.front() == '@') {
      golden.header.push_back(line);
      std::istringstream words(content);
      std::string rule;
      std::string path;
      std::string types;
      words >> rule >> path >> types;
      if (rule == "@map" && !path.empty()) {
        golden.rules.maps.insert(path);
      } else if (rule == "@optional" && !path.empty()) {
        golden.rules.optional.insert(path);
      } else if (rule == "@types" && !types.empty()) {
        golden.rules.extra[path] = split_types(types);
      } else {
        throw std::runtime_error(fmt::format(
            "line {}: '{}' is not a rule (@map PATH, @optional PATH, @types PATH T|T)", number,
            content));
      }
      continue;
    }
    std::string entry = content;
    std::string value;
    if (const auto equals = entry.find(" = "); equals != std::string::npos) {
      value = trimmed(entry.substr(equals + 3));
      entry = entry.substr(0, equals);
    }
    const auto colon = entry.rfind(": ");
    if (colon == std::string::npos) {
      throw std::runtime_error(
          fmt::format("line {}: '{}' is not 'path: type|type'", number, content));
    }
    const std::string path = entry.substr(0, colon);
    golden.body.types[path] = split_types(entry.substr(colon + 2));
    if (!value.empty()) golden.body.values[path].insert(value);
  }
  return golden;
}

std::string render_golden(const std::vector<std::string>& header, const skeleton& body) {
  std::string text;
  for (const auto& line : header) text += line + "\n";
  for (const auto& [path, types] : body.types) {
    text += fmt::format("{}: {}", path, joined(types));
    if (const auto value = body.values.find(path); value != body.values.end()) {
      text += fmt::format(" = {}", fmt::join(value->second, ", "));
    }
    text += "\n";
  }
  return text;
}

std::vector<std::string> differences(const golden_file& golden, const skeleton& actual) {
  std::vector<std::string> found;
  std::set<std::string> paths;
  for (const auto& [path, types] : golden.body.types) paths.insert(path);
  for (const auto& [path, types] : golden.rules.extra) paths.insert(path);
  for (const auto& [path, types] : actual.types) paths.insert(path);
  for (const auto& path : paths) {
    const auto body = golden.body.types.find(path);
    const auto extra = golden.rules.extra.find(path);
    const auto seen = actual.types.find(path);
    const bool known = body != golden.body.types.end() || extra != golden.rules.extra.end();
    if (seen == actual.types.end()) {
      if (body != golden.body.types.end() && !golden.rules.optional.contains(path) &&
          expected_in(actual, path)) {
        found.push_back(fmt::format("key {} removed (was {})", path, joined(body->second)));
      }
      continue;
    }
    if (!known) {
      found.push_back(fmt::format("key {} added ({})", path, joined(seen->second)));
      continue;
    }
    type_set allowed;
    if (body != golden.body.types.end()) allowed = body->second;
    if (extra != golden.rules.extra.end()) allowed.insert(extra->second.begin(), extra->second.end());
    bool fits = true;
    for (const auto& type : seen->second) fits = fits && allowed.contains(type);
    if (!fits) {
      found.push_back(fmt::format("key {} changed {} -> {}", path, joined(allowed),
                                  joined(seen->second)));
    }
  }
  for (const auto& [key, values] : actual.values) {
    const auto pinned = golden.body.values.find(key);
    if (pinned != golden.body.values.end() && pinned->second != values) {
      found.push_back(fmt::format("value of {} changed {} -> {}", key,
                                  fmt::join(pinned->second, ", "), fmt::join(values, ", ")));
    }
  }
  return found;
}

}  // namespace aorta::golden
