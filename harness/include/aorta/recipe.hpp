// A recipe: what to run, under which collectors, and what must hold afterwards. Loads the original
// aorta's probe-mode recipes unchanged and our additions (check, timeout, allow_empty, ...).
#pragma once

#include "aorta/error.hpp"

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace aorta {

// A collector option, normalised to text the way the original stores it: YAML booleans become
// "true"/"false", YAML lists become "a,b", strings are kept verbatim (collectors trim/lower-case
// where their schema says so).
struct option_value {
  std::string text;
  source_location where;
};
using option_map = std::map<std::string, option_value, std::less<>>;

struct collector_request {
  std::string name;
  option_map options;
  source_location where;  // the name's node in the recipe, or the --collect flag
};

struct check_spec {
  std::string expression;
  source_location where;
};

struct recipe {
  std::filesystem::path path;
  int schema_version = 1;
  std::string mode = "probe";
  std::string ticket;
  int trials = 1;
  // `timeout` (ours) or `timeout_per_trial` (original), seconds; nullopt = no limit.
  std::optional<double> timeout_seconds;
  std::vector<std::string> mitigation_axis{"none"};
  std::vector<std::string> diagnostic_axis{"none"};
  std::string env_passthrough_mode = "inherit";
  std::vector<collector_request> collect;  // de-duplicated, first-seen order
  source_location collect_location;
  std::vector<check_spec> checks;
  // `gate:` (docs/regression-gate.md): the default gate against the baseline, e.g.
  // "time +5%, count exact".
  std::optional<std::string> gate;
  // An empty capture fails the trial unless this is set.
  bool allow_empty = false;
  // Payload exit codes that mean "this environment cannot run me" (e.g. 2 for "no GPU"): the
  // trial is reported as skipped (77) instead of failed.
  std::vector<int> environment_exit_codes;
  // When set, an environment exit code is a skip only if the payload's output matches this
  // ECMAScript regex (searched), e.g. "refusing to run|cannot import"; otherwise it fails.
  std::optional<std::string> environment_marker;
  // Exit code the payload must return for a pass (default 0).
  int expect_exit = 0;
  // Keys of the original schema that aorta accepts but does not act on, for a notice.
  std::vector<std::string> ignored_keys;
};

// Parse and validate; every problem is a recipe_error naming file:line:column, the key, what is
// allowed and the fix. `.json` files are read as JSON (a YAML subset), anything else as YAML.
[[nodiscard]] recipe load_recipe(const std::filesystem::path& path);
[[nodiscard]] recipe load_recipe_from_string(std::string_view text, const std::string& file_label);

// `--collect a,b`: replaces the recipe's collector list, keeps the option blocks of collectors
// that survive, drops the others, and re-validates (errors are labelled `--collect`).
void apply_collect_override(recipe& target, std::string_view comma_separated_names);

}  // namespace aorta
