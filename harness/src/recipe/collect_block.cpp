#include "recipe/collect_block.hpp"

#include "aorta/collector.hpp"
#include "option_text.hpp"
#include "text_trim.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace aorta {

namespace detail {

namespace {

constexpr std::string_view collect_path = "recipe.collect";

// Plain YAML booleans become "true"/"false" like the original's string options; everything else
// (quoted strings, numbers, yes/on) keeps its text and is interpreted by the collector's schema.
std::string scalar_option_text(const YAML::Node& node) {
  // YAML 1.2 core-schema spellings of the two booleans.
  static const std::vector<std::string> booleans{"true", "True", "TRUE", "false", "False", "FALSE"};
  const std::string& text = node.Scalar();
  if (is_plain_scalar(node) &&
      std::find(booleans.begin(), booleans.end(), text) != booleans.end()) {
    return to_lower(text);
  }
  return text;
}

option_value read_option_value(const std::string& file, const map_entry& option,
                               const std::string& path) {
  const YAML::Node& node = option.value;
  const std::string fix =
      fmt::format("Fix: give {} a string, number, boolean or list of those (e.g. {}: \"a,b\").",
                  option.key, option.key);
  if (node.IsScalar()) return option_value{scalar_option_text(node), option.value_at};
  if (node.IsSequence()) {
    std::vector<std::string> parts;
    for (const auto& item : node) {
      if (!item.IsScalar()) {
        fail_at(location_of(file, item), path,
                fmt::format("list items must be plain values, got {}. {}", describe(item), fix));
      }
      parts.push_back(scalar_option_text(item));
    }
    return option_value{join(parts, ","), option.value_at};
  }
  fail_at(option.value_at, path,
          fmt::format("expected an option value, got {}; nested mappings are not options. {}",
                      describe(node), fix));
}

option_map read_options(const std::string& file, const map_entry& collector) {
  const std::string path = fmt::format("{}.{}", collect_path, collector.key);
  option_map options;
  if (collector.value.IsNull()) return options;
  if (!collector.value.IsMap()) {
    fail_at(collector.value_at, path,
            fmt::format("expected a mapping of options (or nothing, for the defaults), got {}. "
                        "Fix: write `{}: {{option: value}}`, or `{}:` with no value.",
                        describe(collector.value), collector.key, collector.key));
  }
  for (const auto& option : mapping_entries(file, collector.value, path)) {
    const std::string option_path = fmt::format("{}.{}", path, option.key);
    if (option.value.IsNull()) {
      fail_at(option.value_at, option_path,
              fmt::format("has no value. Fix: give it a value (e.g. {}: \"...\"), or remove "
                          "the option to use its default.",
                          option.key));
    }
    options.emplace(option.key, read_option_value(file, option, option_path));
  }
  return options;
}

std::vector<collector_request> read_name_list(const std::string& file, const map_entry& entry) {
  std::vector<collector_request> requests;
  std::size_t index = 0;
  for (const auto& item : entry.value) {
    const source_location where = location_of(file, item);
    if (!item.IsScalar() || trim(item.Scalar()).empty()) {
      fail_at(where, fmt::format("{}[{}]", collect_path, index),
              fmt::format("expected a collector name, got {}. Fix: list names (collect: "
                          "[rocprof]); to give options use the mapping form (collect: {{proton: "
                          "{{backend: instrumentation}}}}).",
                          describe(item)));
    }
    std::string name{trim(item.Scalar())};
    const bool seen = std::any_of(requests.begin(), requests.end(),
                                  [&](const collector_request& r) { return r.name == name; });
    if (!seen) requests.push_back(collector_request{std::move(name), {}, where});
    ++index;
  }
  return requests;
}

std::vector<std::string> split_commas(std::string_view text) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  while (true) {
    const std::size_t comma = text.find(',', start);
    parts.emplace_back(text.substr(start, comma - start));
    if (comma == std::string_view::npos) return parts;
    start = comma + 1;
  }
}

// "<c>.<key>: " or "<c>: " at the front of a collector's message; the recipe label replaces it.
std::string without_collector_prefix(const option_error& e) {
  std::string message = e.what();
  for (const std::string& prefix :
       {fmt::format("{}.{}: ", e.collector(), e.key()), fmt::format("{}: ", e.collector())}) {
    if (message.starts_with(prefix)) return message.substr(prefix.size());
  }
  return message;
}

}  // namespace

std::vector<collector_request> read_collect_block(const std::string& file, const map_entry& entry) {
  std::vector<collector_request> requests;
  if (entry.value.IsSequence()) {
    requests = read_name_list(file, entry);
  } else if (entry.value.IsMap()) {
    for (const auto& collector : mapping_entries(file, entry.value, collect_path)) {
      requests.push_back(collector_request{std::string(trim(collector.key)),
                                           read_options(file, collector), collector.key_at});
    }
  } else {
    fail_at(entry.value_at, collect_path,
            fmt::format("expected a list of collector names or a mapping of name to options, got "
                        "{}. Fix: write collect: [rocprof], collect: {{proton: {{backend: "
                        "instrumentation}}}}, or collect: [] for none; valid names: {}.",
                        describe(entry.value), join(collector_names())));
  }
  try {
    validate_collectors(requests);
  } catch (const option_error& e) {
    const auto request = std::find_if(requests.begin(), requests.end(),
                                      [&](const auto& r) { return r.name == e.collector(); });
    source_location where = entry.key_at;
    std::string path = std::string(collect_path);
    if (request != requests.end()) {
      where = request->where;
      path += "." + request->name;
      if (const auto* option = find_option(request->options, e.key())) {
        where = option->where;
        path += "." + e.key();
      }
    }
    fail_at(where, path, without_collector_prefix(e));
  }
  return requests;
}

}  // namespace detail

void apply_collect_override(recipe& target, std::string_view comma_separated_names) {
  std::vector<collector_request> requests;
  for (const auto& part : detail::split_commas(comma_separated_names)) {
    std::string name{detail::trim(part)};
    if (name.empty()) continue;
    const bool seen = std::any_of(requests.begin(), requests.end(),
                                  [&](const collector_request& r) { return r.name == name; });
    if (seen) continue;
    // Option blocks travel with the collectors that survive the override; there is no CLI
    // syntax for options.
    const auto from_recipe =
        std::find_if(target.collect.begin(), target.collect.end(),
                     [&](const collector_request& r) { return r.name == name; });
    if (from_recipe != target.collect.end()) {
      collector_request kept = *from_recipe;
      kept.where = source_location{"--collectors", 0, 0};
      requests.push_back(std::move(kept));
    } else {
      requests.push_back(
          collector_request{std::move(name), {}, source_location{"--collectors", 0, 0}});
    }
  }
  const std::string flag = fmt::format("--collectors {}", comma_separated_names);
  if (requests.empty()) {
    throw recipe_error(fmt::format(
        "{}: names no collector; valid: [{}]. Fix: name one or more collectors separated by "
        "commas (e.g. --collect rocprof), or drop --collect to use the recipe's collect: list.",
        flag, detail::join(collector_names())));
  }
  try {
    validate_collectors(requests);
  } catch (const option_error& e) {
    std::string origin;
    const auto request = std::find_if(requests.begin(), requests.end(),
                                      [&](const auto& r) { return r.name == e.collector(); });
    if (request != requests.end()) {
      if (const auto* option = detail::find_option(request->options, e.key())) {
        origin = fmt::format(" (the option {}.{} comes from {})", e.collector(), e.key(),
                             option->where.to_string());
      }
    }
    throw recipe_error(fmt::format("{}: {}{}", flag, e.what(), origin));
  }
  target.collect = std::move(requests);
}

}  // namespace aorta
