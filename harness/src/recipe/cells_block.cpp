#include "recipe/cells_block.hpp"

#include "option_text.hpp"
#include "recipe/collect_block.hpp"
#include "terminal_text.hpp"
#include "text_trim.hpp"

#include <fmt/format.h>

#include <charconv>
#include <cmath>

namespace aorta::detail {
namespace {

bool is_cell_name_char(char c, bool first) {
  const bool alnum = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
  return alnum || c == '_' || (!first && c == '-');
}

// POSIX's portable environment variable name shape, as the original requires of extra_env.
bool is_env_name(const std::string& name) {
  if (name.empty() || (name[0] >= '0' && name[0] <= '9')) return false;
  for (const char c : name) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                    c == '_';
    if (!ok) return false;
  }
  return true;
}

void check_env_name(const std::string& name, const source_location& where,
                    const std::string& path) {
  if (!is_env_name(name)) {
    fail_at(where, path,
            fmt::format("'{}' is not an environment variable name ([A-Za-z_][A-Za-z0-9_]*). "
                        "Fix: use letters, digits and '_', not starting with a digit.",
                        terminal_safe(name)));
  }
}

void read_env(const std::string& file, const map_entry& entry, const std::string& path,
              mitigation_def& target) {
  if (!entry.value.IsMap()) {
    fail_at(entry.value_at, path,
            fmt::format("expected a mapping of variable to value, got {}. Fix: write env: "
                        "{{NAME: value}}.",
                        describe(entry.value)));
  }
  for (const auto& variable : mapping_entries(file, entry.value, path)) {
    check_env_name(variable.key, variable.key_at, path);
    const std::string item_path = path + "." + variable.key;
    if (!variable.value.IsScalar()) {
      fail_at(variable.value_at, item_path,
              fmt::format("expected a value, got {}. Fix: give the variable a value, or list it "
                          "under unset: to remove it from the payload's environment.",
                          describe(variable.value)));
    }
    const std::string& value = variable.value.Scalar();
    if (value.find('\0') != std::string::npos) {
      fail_at(variable.value_at, item_path,
              "contains a NUL byte, which no environment can hold. Fix: remove it.");
    }
    target.env_set[variable.key] = value;
  }
}

std::vector<std::string> read_words(const std::string& file, const map_entry& entry,
                                    const std::string& path) {
  std::vector<std::string> words;
  for (auto& item : read_text_list(file, entry, path, false)) {
    // A NUL would end the word where exec reads it, so the cell would run a command other than
    // the one written.
    if (item.text.find('\0') != std::string::npos) {
      fail_at(item.where, path,
              "contains a NUL byte, which no command line can hold. Fix: remove it.");
    }
    words.push_back(std::move(item.text));
  }
  return words;
}

mitigation_def read_mitigation(const std::string& file, const map_entry& named,
                               const std::string& root) {
  check_part_name(named.key, named.key_at, root);
  const std::string path = root + "." + named.key;
  mitigation_def definition;
  definition.name = named.key;
  definition.where = named.key_at;
  if (named.value.IsNull()) return definition;  // a mitigation that changes nothing: an A/A cell
  if (!named.value.IsMap()) {
    fail_at(named.value_at, path,
            fmt::format("expected a mapping (env, unset, args, command, trials), got {}. Fix: "
                        "write {}: {{env: {{NAME: value}}}}.",
                        describe(named.value), named.key));
  }
  for (const auto& entry : mapping_entries(file, named.value, path)) {
    const std::string key_path = path + "." + entry.key;
    if (entry.key == "env") {
      read_env(file, entry, key_path, definition);
    } else if (entry.key == "unset") {
      for (auto& item : read_text_list(file, entry, key_path, true)) {
        check_env_name(item.text, item.where, key_path);
        definition.env_unset.push_back(std::move(item.text));
      }
    } else if (entry.key == "args") {
      definition.extra_args = read_words(file, entry, key_path);
    } else if (entry.key == "command") {
      if (entry.value.IsSequence() && entry.value.size() == 0) {
        fail_at(entry.value_at, key_path,
                "is empty, so the cell would have no command to run. Fix: give the program and "
                "its arguments, e.g. command: [build-pr/bench, --size, 4096], or remove the key "
                "to run the command given after `--`.");
      }
      definition.command = read_words(file, entry, key_path);
    } else if (entry.key == "trials") {
      definition.trials = read_integer(entry, key_path, 1, 1'000'000);
    } else {
      const std::vector<std::string> allowed{"env", "unset", "args", "command", "trials"};
      fail_at(entry.key_at, path,
              fmt::format("unknown key '{}'.{} Allowed keys: {}. Fix: rename or remove it.",
                          entry.key, did_you_mean(entry.key, allowed), join(allowed)));
    }
  }
  for (const auto& name : definition.env_unset) {
    if (definition.env_set.contains(name)) {
      fail_at(named.key_at, path,
              fmt::format("sets {} under env: and removes it under unset:. Fix: keep one.", name));
    }
  }
  return definition;
}

double read_cell_number(const map_entry& entry, const std::string& path) {
  double value = 0;
  bool ok = is_plain_scalar(entry.value);
  if (ok) {
    const std::string& text = entry.value.Scalar();
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    ok = ec == std::errc{} && end == text.data() + text.size() && std::isfinite(value);
  }
  if (!ok) {
    fail_at(entry.value_at, path,
            fmt::format("expected a number, got {}. Fix: write a bare number, e.g. {}: 1.15.",
                        describe(entry.value), entry.key));
  }
  return value;
}

}  // namespace

void check_part_name(const std::string& name, const source_location& where,
                     const std::string& path) {
  bool ok = !name.empty() && name.size() <= max_cell_part_length;
  for (std::size_t i = 0; ok && i < name.size(); ++i) ok = is_cell_name_char(name[i], i == 0);
  if (!ok) {
    fail_at(where, path,
            fmt::format("'{}' is not a valid name: use 1 to {} of [A-Za-z0-9_-], not starting "
                        "with '-'. '.' and '+' join names into cell names and '/' would leave the "
                        "output directory. Fix: rename it, e.g. 'fast_path'.",
                        terminal_safe(name.substr(0, max_cell_part_length + 1)),
                        max_cell_part_length));
  }
  if (name == no_change_name) {
    fail_at(where, path,
            "'none' is reserved: on an axis it means no change. Fix: give this entry another "
            "name.");
  }
}

std::vector<axis_item> read_axis(const std::string& file, const map_entry& entry) {
  std::vector<axis_item> axis;
  for (auto& item : read_text_list(file, entry, "recipe." + entry.key, false)) {
    axis.push_back(axis_item{std::string(trim(item.text)), item.where});
  }
  return axis;
}

std::vector<mitigation_def> read_mitigations(const std::string& file, const map_entry& entry,
                                             const std::string& root) {
  if (!entry.value.IsMap()) {
    fail_at(entry.value_at, root,
            fmt::format("expected a mapping of name to mitigation, got {}. Fix: write {}.",
                        describe(entry.value),
                        root == "recipe.mitigations"
                            ? "mitigations: {fast: {env: {MODE: fast}}}"
                            : R"({"fast": {"env": {"MODE": "fast"}}})"));
  }
  std::vector<mitigation_def> definitions;
  for (const auto& named : mapping_entries(file, entry.value, root)) {
    definitions.push_back(read_mitigation(file, named, root));
  }
  return definitions;
}

std::vector<diagnostic_def> read_diagnostics(const std::string& file, const map_entry& entry) {
  if (!entry.value.IsMap()) {
    fail_at(entry.value_at, "recipe.diagnostics",
            fmt::format("expected a mapping of name to collectors block, got {}. Fix: write "
                        "diagnostics: {{cg: [callgrind]}}.",
                        describe(entry.value)));
  }
  std::vector<diagnostic_def> definitions;
  for (const auto& named : mapping_entries(file, entry.value, "recipe.diagnostics")) {
    check_part_name(named.key, named.key_at, "recipe.diagnostics");
    if (named.value.IsNull()) {
      fail_at(named.value_at, "recipe.diagnostics." + named.key,
              "has no collectors block. Fix: give one, e.g. [callgrind], or [] for none.");
    }
    definitions.push_back(
        diagnostic_def{named.key, read_collect_block(file, named), named.key_at});
  }
  return definitions;
}

confound_spec read_confound(const std::string& file, const map_entry& entry) {
  confound_spec spec;
  spec.where = entry.key_at;
  if (!entry.value.IsMap()) {
    fail_at(entry.value_at, "recipe.confound",
            fmt::format("expected a mapping (threshold, baseline_cell, fail, alpha, ambiguous), "
                        "got {}. "
                        "Fix: write confound: {{threshold: 1.15, baseline_cell: none}}.",
                        describe(entry.value)));
  }
  for (const auto& item : mapping_entries(file, entry.value, "recipe.confound")) {
    const std::string path = "recipe.confound." + item.key;
    if (item.key == "threshold") {
      spec.threshold = read_cell_number(item, path);
      spec.threshold_given = true;
      if (spec.threshold < 1.0 || spec.threshold > 1000.0) {
        fail_at(item.value_at, path,
                fmt::format("{} is out of range: the threshold is a ratio cell / baseline cell "
                            "from 1 to 1000 (a value <= 0 or below 1 would call unchanged cells "
                            "slower). Fix: write e.g. threshold: 1.05 for 5%.",
                            item.value.Scalar()));
      }
    } else if (item.key == "baseline_cell") {
      spec.baseline_cell = trim(read_text(item, path));
    } else if (item.key == "fail") {
      spec.fail = read_boolean(item, path);
    } else if (item.key == "alpha") {
      spec.alpha = read_cell_number(item, path);
      if (spec.alpha <= 0 || spec.alpha >= 0.5) {
        fail_at(item.value_at, path, "must be between 0 and 0.5 (0.05 is usual). Fix: change it.");
      }
    } else if (item.key == "ambiguous") {
      const std::string policy(trim(read_text(item, path)));
      if (policy == "fail") {
        spec.ambiguous = ambiguous_policy::fail;
      } else if (policy == "skip") {
        spec.ambiguous = ambiguous_policy::skip;
      } else if (policy == "pass") {
        spec.ambiguous = ambiguous_policy::pass;
      } else {
        fail_at(item.value_at, path,
                fmt::format("'{}' is not a policy; allowed: fail, skip, pass (what a row still "
                            "AMBIGUOUS at the end of the run does when the confound verdicts "
                            "fail the run). Fix: write ambiguous: fail.",
                            policy));
      }
    } else {
      const std::vector<std::string> allowed{"threshold", "baseline_cell", "fail", "alpha",
                                             "ambiguous"};
      fail_at(item.key_at, "recipe.confound",
              fmt::format("unknown key '{}'.{} Allowed keys: {}. Fix: rename or remove it.",
                          item.key, did_you_mean(item.key, allowed), join(allowed)));
    }
  }
  return spec;
}

}  // namespace aorta::detail
