// A recipe: what to run, under which collectors, and what must hold afterwards. Loads the original
// aorta's probe-mode recipes unchanged and our additions (check, timeout, allow_empty, ...).
#pragma once

#include "aorta/cells.hpp"
#include "aorta/error.hpp"

#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
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

class collector_config;  // aorta/collector.hpp

struct collector_request {
  std::string name;
  option_map options;
  source_location where;  // the name's node in the recipe, or the --collect flag
  // The options parsed by the collector, set by validate_collectors() when the recipe loads.
  std::shared_ptr<const collector_config> config = nullptr;
};

// A diagnostic of the recipe's `diagnostics:` block: the collectors its cells run under, in place
// of the recipe's `collect:`.
struct diagnostic_def {
  std::string name;
  std::vector<collector_request> collect;
  source_location where;
};

struct check_spec {
  std::string expression;
  source_location where;
};

// The range of `timeout` / `timeout_per_trial` and `capture_exit_grace`, in seconds: below a
// millisecond the clock cannot honour it, beyond 30 days it is a typo, not a test's limit (and
// 1e10 s would overflow the clock). Values outside are refused at load.
inline constexpr double min_timeout_seconds = 0.001;
inline constexpr double max_timeout_seconds = 30.0 * 24 * 60 * 60;
// How long a payload may keep running once every collector's output is complete, valid and
// unchanged, before aorta ends it as "hung after a complete capture" (ROCm/aorta#434: Proton on
// Triton 3.8.0 can deadlock at exit after writing its file). Generous, because a payload may go on
// computing after its capture (e.g. after proton.finalize()).
inline constexpr double default_capture_exit_grace_seconds = 120.0;

struct recipe {
  std::filesystem::path path;
  int schema_version = 1;
  std::string mode = "probe";
  std::string ticket;
  int trials = 1;
  // `timeout` (ours) or `timeout_per_trial` (original), seconds; nullopt = no limit.
  std::optional<double> timeout_seconds;
  std::string timeout_key;  // which of the two keys set it, for messages
  double capture_exit_grace_seconds = default_capture_exit_grace_seconds;
  std::vector<axis_item> mitigation_axis{axis_item{"none", {}}};
  std::vector<axis_item> diagnostic_axis{axis_item{"none", {}}};
  // `mitigations:` and `diagnostics:` (docs/recipes.md, "Cells"), in document order;
  // `--mitigations-file` adds to the first.
  std::vector<mitigation_def> mitigations;
  std::vector<diagnostic_def> diagnostics;
  std::optional<confound_spec> confound;
  std::string env_passthrough_mode = "inherit";
  std::vector<collector_request> collect;  // de-duplicated, first-seen order
  source_location collect_location;
  std::vector<check_spec> checks;
  // `gate:` (docs/regression-gate.md): the default gate against the baseline, e.g.
  // "time +5%, count exact". Loaded as text; a run parses it with its checks and refuses a bad
  // one at `gate_where`.
  std::optional<std::string> gate;
  source_location gate_where;
  // An empty capture fails the trial unless this is set.
  bool allow_empty = false;
  // `measure:` metric names shown and reported to CTest besides those the checks read ("all":
  // every one but callgrind's loader and libc functions); `--measure` adds to them.
  std::vector<std::string> measure;
  // Payload exit codes that mean "this environment cannot run me" (e.g. 2 for "no GPU"): the
  // trial is reported as skipped (77) instead of failed.
  std::vector<int> environment_exit_codes;
  // When set, an environment exit code is a skip only if the payload's output matches this regex
  // (RE2 syntax, aorta/name_regex.hpp; searched), e.g. "refusing to run|cannot import";
  // otherwise it fails.
  std::optional<std::string> environment_marker;
  // Exit code the payload must return for a pass (default 0).
  int expect_exit = 0;
  // `ranks: N` (ours): the payload is a multi-rank launch (torchrun, mpirun, mpiexec, srun) and
  // exactly N ranks must each write a capture. Optional when the launcher's own arguments say how
  // many ranks it starts (docs/distributed.md).
  std::optional<int> ranks;
  source_location ranks_location;
  // `ranks_serialized: true` (ours): ranks that share a card take it in turn while they measure
  // (the payload serializes them), so their kernel times are their own and a straggler judgement
  // over them stands; without it, timed straggler judgements over ranks sharing a card are refused
  // (baseline/shared_card.hpp).
  bool ranks_serialized = false;
  // Keys of the original schema that aorta accepts but does not act on, for a notice.
  std::vector<std::string> ignored_keys;
};

// Largest recipe file aorta reads: a recipe is a page of keys, so a bigger file is a mistake (the
// wrong path) and reading it whole would cost memory in proportion.
inline constexpr std::uintmax_t max_recipe_bytes = std::uintmax_t{1} << 20;

// Parse and validate; every problem is a recipe_error naming file:line:column, the key, what is
// allowed and the fix. `.json` files must be strict JSON (no trailing commas or comments), then
// are read as YAML (JSON is a YAML subset); anything else is YAML. A directory, or a file over
// max_recipe_bytes, is refused.
// `mitigations_files` (`--mitigations-file`): strict JSON objects of more mitigations, each shaped
// as in the recipe's `mitigations:` block, added before the cells are checked; a name defined
// twice is an error naming both places.
[[nodiscard]] recipe load_recipe(const std::filesystem::path& path,
                                 const std::vector<std::filesystem::path>& mitigations_files = {});
[[nodiscard]] recipe load_recipe_from_string(std::string_view text, const std::string& file_label);

// `--collect a,b`: replaces the recipe's collector list, keeps the option blocks of collectors
// that survive, drops the others, and re-validates (errors are labelled `--collect`).
void apply_collect_override(recipe& target, std::string_view comma_separated_names);

}  // namespace aorta
