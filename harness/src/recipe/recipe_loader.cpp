// Top-level recipe keys (docs/recipes.md): the original's probe-mode schema plus our additions.
#include "aorta/recipe.hpp"

#include "aorta/name_regex.hpp"
#include "bounded_input.hpp"
#include "recipe/cell_plan.hpp"
#include "option_text.hpp"
#include "json_text.hpp"
#include "recipe/cells_block.hpp"
#include "recipe/collect_block.hpp"
#include "recipe/recipe_keys.hpp"
#include "recipe/yaml_read.hpp"
#include "text_trim.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <iterator>
#include <unordered_map>

namespace aorta {

namespace {

using detail::fail_at;
using detail::map_entry;

std::string key_path(const map_entry& entry) {
  return "recipe." + entry.key;
}

void read_mode(recipe& target, const map_entry& entry) {
  const std::string mode{detail::trim(detail::read_text(entry, key_path(entry)))};
  if (mode == "probe") {
    target.mode = mode;
    return;
  }
  if (mode == "triage" || mode == "sanitizer") {
    fail_at(entry.value_at, key_path(entry),
            fmt::format("'{}' is not supported: aorta runs the command given after `--` under "
                        "its collectors and has no {} runner. Fix: use `mode: probe` (or omit "
                        "mode) and pass the command on the command line.",
                        mode, mode));
  }
  fail_at(entry.value_at, key_path(entry),
          fmt::format("'{}' is not a recipe mode; allowed: probe. Fix: use `mode: probe` (or "
                      "omit mode).",
                      mode));
}

void read_env_passthrough(recipe& target, const map_entry& entry) {
  const std::string value{detail::trim(detail::read_text(entry, key_path(entry)))};
  if (value != "inherit" && value != "file") {
    fail_at(entry.value_at, key_path(entry),
            fmt::format("'{}' is not an env passthrough mode; allowed: inherit, file. Fix: use "
                        "inherit (the child gets this environment) or file.{}",
                        value, detail::did_you_mean(value, {"inherit", "file"})));
  }
  target.env_passthrough_mode = value;
}

std::vector<int> read_environment_exit_codes(const std::string& file, const map_entry& entry) {
  const std::string path = key_path(entry);
  std::vector<YAML::Node> items;
  if (entry.value.IsSequence()) {
    for (const auto& item : entry.value) items.push_back(item);
  } else {
    items.push_back(entry.value);
  }
  std::vector<int> codes;
  for (std::size_t i = 0; i < items.size(); ++i) {
    source_location where = detail::location_of(file, items[i]);
    if (where.line == 0 || items[i].IsNull()) where = entry.value_at;
    const std::string item_path = entry.value.IsSequence() ? fmt::format("{}[{}]", path, i) : path;
    if (detail::is_plain_scalar(items[i]) && items[i].Scalar() == "0") {
      fail_at(where, item_path,
              "0 cannot mean \"this environment cannot run me\": it is the payload's success "
              "code. Fix: list the codes your payload uses for that (e.g. [2]), from 1 to 255.");
    }
    const int code = detail::read_integer_node(items[i], where, item_path, 1, 255);
    if (std::find(codes.begin(), codes.end(), code) == codes.end()) codes.push_back(code);
  }
  return codes;
}

// read_positive_seconds, held to [min_timeout_seconds, max_timeout_seconds].
double read_limit_seconds(const map_entry& entry, const std::string& path) {
  const double seconds = detail::read_positive_seconds(entry, path);
  if (seconds < min_timeout_seconds || seconds > max_timeout_seconds) {
    fail_at(entry.value_at, path,
            fmt::format("{} s is out of range; allowed: {} to {} seconds (30 days). Fix: give the "
                        "limit in seconds within that range, e.g. {}: 1800.",
                        detail::trim(entry.value.Scalar()), min_timeout_seconds,
                        max_timeout_seconds, entry.key));
  }
  return seconds;
}

struct timeout_seen {
  double seconds = 0;
  source_location where;
  std::string key;
};

// An empty document, or one whose top level is not a mapping, has no keys to read.
void require_top_mapping(const YAML::Node& root, const std::string& file) {
  if (!root.IsDefined() || root.IsNull()) {
    fail_at(source_location{file, 0, 0}, "recipe",
            "is empty. Fix: start with `schema_version: 1` and `mode: probe`, then list "
            "collectors under `collect:`.");
  }
  if (!root.IsMap()) {
    fail_at(detail::location_of(file, root), "recipe",
            fmt::format("expected a mapping of keys at the top level, got {}. Fix: write "
                        "`schema_version: 1` and the other keys as `key: value` lines.",
                        detail::describe(root)));
  }
}

// timeout_per_trial and timeout mean the same; both given, they must agree.
void read_timeout(recipe& parsed, const map_entry& entry, std::optional<timeout_seen>& seen) {
  const std::string path = key_path(entry);
  const double seconds = read_limit_seconds(entry, path);
  if (seen && seen->seconds != seconds) {
    fail_at(entry.value_at, path,
            fmt::format("{} s disagrees with {}: {} s at {}. Fix: keep one of the two "
                        "keys (they mean the same: seconds per trial).",
                        seconds, seen->key, seen->seconds, seen->where.to_string()));
  }
  seen = timeout_seen{seconds, entry.value_at, entry.key};
  parsed.timeout_seconds = seconds;
  parsed.timeout_key = entry.key;
}

// Parsed, and refused at `gate_where`, with the run's checks (sweep/checked_recipe.cpp).
void read_gate(recipe& parsed, const map_entry& entry) {
  parsed.gate = detail::read_text(entry, key_path(entry));
  parsed.gate_where = entry.value_at;
}

void read_environment_marker(recipe& parsed, const map_entry& entry) {
  std::string marker = detail::read_text(entry, key_path(entry));
  try {
    (void)name_regex::compile(marker);
  } catch (const std::invalid_argument& e) {
    fail_at(entry.value_at, key_path(entry),
            fmt::format("'{}' is not a regex aorta accepts ({}). Fix: escape the special "
                        "characters, e.g. \\( for a literal parenthesis.",
                        marker, e.what()));
  }
  parsed.environment_marker = std::move(marker);
}

// What no single key can say: schema_version present, expect_exit not also an environment code.
void require_consistent(const recipe& parsed, bool saw_schema_version, const std::string& file) {
  if (!saw_schema_version) {
    fail_at(source_location{file, 1, 1}, "recipe.schema_version",
            "is missing; allowed: 1. Fix: add `schema_version: 1` as the first line.");
  }
  const auto clash = std::find(parsed.environment_exit_codes.begin(),
                               parsed.environment_exit_codes.end(), parsed.expect_exit);
  if (clash != parsed.environment_exit_codes.end()) {
    fail_at(source_location{file, 0, 0}, "recipe.expect_exit",
            fmt::format("{} is also listed in environment_exit_codes, so it would mean both "
                        "\"passed\" and \"cannot run here\". Fix: remove it from one of them.",
                        parsed.expect_exit));
  }
}

recipe parse_document(const YAML::Node& root, const std::string& file) {
  require_top_mapping(root, file);
  recipe parsed;
  parsed.path = file;
  bool saw_schema_version = false;
  std::optional<timeout_seen> timeout;
  for (const auto& entry : detail::mapping_entries(file, root, "recipe")) {
    const std::string path = key_path(entry);
    if (entry.key == "schema_version") {
      parsed.schema_version = detail::read_integer(entry, path, 1, 1);
      saw_schema_version = true;
    } else if (entry.key == "mode") {
      read_mode(parsed, entry);
    } else if (entry.key == "ticket") {
      parsed.ticket = entry.value.IsNull() ? std::string{} : detail::read_text(entry, path);
    } else if (entry.key == "trials") {
      parsed.trials = detail::read_integer(entry, path, 1, 1'000'000);
    } else if (entry.key == "timeout_per_trial" || entry.key == "timeout") {
      read_timeout(parsed, entry, timeout);
    } else if (entry.key == "capture_exit_grace") {
      parsed.capture_exit_grace_seconds = read_limit_seconds(entry, path);
    } else if (entry.key == "mitigation_axis") {
      parsed.mitigation_axis = detail::read_axis(file, entry);
    } else if (entry.key == "diagnostic_axis") {
      parsed.diagnostic_axis = detail::read_axis(file, entry);
    } else if (entry.key == "mitigations") {
      parsed.mitigations = detail::read_mitigations(file, entry, "recipe.mitigations");
    } else if (entry.key == "diagnostics") {
      parsed.diagnostics = detail::read_diagnostics(file, entry);
    } else if (entry.key == "confound") {
      parsed.confound = detail::read_confound(file, entry);
    } else if (entry.key == "env_passthrough_mode") {
      read_env_passthrough(parsed, entry);
    } else if (entry.key == "collect") {
      parsed.collect = detail::read_collect_block(file, entry);
      parsed.collect_location = entry.key_at;
    } else if (entry.key == "check") {
      for (auto& item : detail::read_text_list(file, entry, path, true)) {
        parsed.checks.push_back(check_spec{std::move(item.text), item.where});
      }
    } else if (entry.key == "gate") {
      read_gate(parsed, entry);
    } else if (entry.key == "allow_empty") {
      parsed.allow_empty = detail::read_boolean(entry, path);
    } else if (entry.key == "measure") {
      for (auto& item : detail::read_text_list(file, entry, path, true)) {
        parsed.measure.push_back(std::move(item.text));
      }
    } else if (entry.key == "environment_exit_codes") {
      parsed.environment_exit_codes = read_environment_exit_codes(file, entry);
    } else if (entry.key == "environment_marker") {
      read_environment_marker(parsed, entry);
    } else if (entry.key == "expect_exit") {
      parsed.expect_exit = detail::read_integer(entry, path, 0, 255);
    } else if (entry.key == "ranks") {
      parsed.ranks = detail::read_integer(entry, path, 1, 65536);
      parsed.ranks_location = entry.key_at;
    } else if (entry.key == "ranks_serialized") {
      parsed.ranks_serialized = detail::read_boolean(entry, path);
    } else if (detail::is_ignored_probe_key(entry.key)) {
      parsed.ignored_keys.push_back(entry.key);
    } else {
      detail::reject_unknown_key(entry);
    }
  }
  require_consistent(parsed, saw_schema_version, file);
  return parsed;
}

// YAML would accept what JSON does not (a trailing comma, a comment, a bare word), so a .json
// recipe (or any mitigations file, which is JSON whatever its name) that a JSON tool would reject
// is refused here with its line and column. `noun` is "recipe" or "mitigations file".
void require_strict_json(std::string_view text, const std::string& file, std::string_view noun) {
  try {
    (void)detail::parse_json(text);
  } catch (const detail::json_input_error& failure) {
    source_location where{file, 0, 0};
    if (failure.byte() > 0) {
      const std::string_view before = text.substr(0, std::min(failure.byte() - 1, text.size()));
      where.line = static_cast<int>(std::count(before.begin(), before.end(), '\n')) + 1;
      const std::size_t line_start = before.rfind('\n');
      where.column = static_cast<int>(
          before.size() - (line_start == std::string_view::npos ? 0 : line_start + 1) + 1);
    }
    fail_at(where, noun,
            fmt::format("is not strict JSON ({}). Fix: remove trailing commas and comments and "
                        "quote every key and string{}.",
                        failure.what(),
                        noun == "recipe" ? ", or rename the file to .yaml for YAML"
                                         : "; a mitigations file is JSON whatever its name"));
  }
}

}  // namespace

namespace {

recipe parse_unchecked(std::string_view text, const std::string& file_label) {
  YAML::Node root;
  try {
    root = YAML::Load(std::string(text));
  } catch (const YAML::Exception& e) {
    const source_location where{file_label, e.mark.is_null() ? 0 : e.mark.line + 1,
                                e.mark.is_null() ? 0 : e.mark.column + 1};
    fail_at(where, "recipe",
            fmt::format("is not valid YAML ({}). Fix: correct the syntax at that position "
                        "(indentation, a missing ':' or an unclosed quote or bracket).",
                        e.msg));
  }
  return parse_document(root, file_label);
}

}  // namespace

recipe load_recipe_from_string(std::string_view text, const std::string& file_label) {
  recipe parsed = parse_unchecked(text, file_label);
  (void)detail::plan_cells(parsed);  // refuses undefined names and conflicts at load
  return parsed;
}

namespace {

// The file's text, opened through the bounded input layer (a FIFO or device is refused at once,
// never read) and refused past max_recipe_bytes (never the whole of a wrong multi-gigabyte path).
// `noun` and `flag` name the file's role.
std::string read_bounded_text(const std::filesystem::path& path, std::string_view noun,
                              std::string_view flag) {
  std::error_code ignored;
  if (std::filesystem::is_directory(path, ignored)) {
    throw recipe_error(fmt::format("{}: is a directory, not a {} file. Fix: pass the {}'s YAML or "
                                   "JSON file to {}.",
                                   path.string(), noun, noun, flag));
  }
  std::string text;
  try {
    detail::input_file in = detail::open_input_file(path);
    std::array<char, 64 * 1024> block{};
    while (text.size() <= max_recipe_bytes) {
      const std::size_t got = in.read_some(block.data(), block.size());
      if (got == 0) break;
      text.append(block.data(), got);
    }
  } catch (const detail::input_error& e) {
    // e names the file first; the role it was given in goes between the name and the reason.
    std::string_view why = e.what();
    if (const std::string prefix = path.string() + ": "; why.starts_with(prefix)) {
      why.remove_prefix(prefix.size());
    }
    throw recipe_error(fmt::format("{}: cannot read the {} file given to {}: {}", path.string(),
                                   noun, flag, why));
  }
  if (text.size() > max_recipe_bytes) {
    throw recipe_error(fmt::format("{}: is larger than {} bytes (max_recipe_bytes), aorta's limit "
                                   "on a {} file. Fix: check the path given to {}.",
                                   path.string(), max_recipe_bytes, noun, flag));
  }
  return text;
}

void add_mitigations_file(recipe& target, const std::filesystem::path& path) {
  const std::string file = path.string();
  const std::string text = read_bounded_text(path, "mitigations", "--mitigations-file");
  require_strict_json(text, file, "mitigations file");
  YAML::Node root;
  try {
    root = YAML::Load(text);
  } catch (const YAML::Exception& e) {
    fail_at(source_location{file, e.mark.is_null() ? 0 : e.mark.line + 1,
                            e.mark.is_null() ? 0 : e.mark.column + 1},
            "mitigations file", fmt::format("is not valid JSON ({}).", e.msg));
  }
  // The same shape as the recipe's block: {"name": {"env": {...}, "args": [...]}, ...}.
  const map_entry entry{"mitigations", root, source_location{file, 1, 1},
                        detail::location_of(file, root)};
  auto added = detail::read_mitigations(file, entry, "mitigations");
  // Looked up by name, not scanned: 10^5 mitigations in one file took 44 s.
  std::unordered_map<std::string, source_location> defined;
  defined.reserve(target.mitigations.size() + added.size());
  for (const auto& existing : target.mitigations) defined.emplace(existing.name, existing.where);
  for (auto& definition : added) {
    const auto [first, inserted] = defined.emplace(definition.name, definition.where);
    if (!inserted) {
      fail_at(definition.where, "mitigations file",
              fmt::format("defines '{}' again (first at {}). Fix: rename one of them.",
                          definition.name, first->second.to_string()));
    }
  }
  target.mitigations.insert(target.mitigations.end(), std::make_move_iterator(added.begin()),
                            std::make_move_iterator(added.end()));
}

}  // namespace

recipe load_recipe(const std::filesystem::path& path,
                   const std::vector<std::filesystem::path>& mitigations_files) {
  const std::string text = read_bounded_text(path, "recipe", "--recipe / RECIPE");
  if (path.extension() == ".json") require_strict_json(text, path.string(), "recipe");
  recipe loaded = parse_unchecked(text, path.string());
  loaded.path = path;
  for (const auto& file : mitigations_files) add_mitigations_file(loaded, file);
  (void)detail::plan_cells(loaded);  // refuses undefined names and conflicts at load
  return loaded;
}

}  // namespace aorta
