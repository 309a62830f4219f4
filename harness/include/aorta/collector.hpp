// The collector extension point. A collector is one folder, harness/src/collectors/<name>/, with
// one class behind this interface and one entry in the registry (collectors/registry.cpp); the
// sweep, `aorta check`, the rank launcher and the CLI's help ask the registry and never a name.
// docs/architecture.md draws where each hook is called.
#pragma once

#include "aorta/capture.hpp"
#include "aorta/launch_plan.hpp"
#include "aorta/platform.hpp"
#include "aorta/recipe.hpp"

#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace aorta {

class check_expression;

// A collector's options after parsing: each collector derives its own typed configuration and
// reads it back with config_as<T>(). Parsed once, when the recipe (or --collect) is loaded, and
// kept with the request (collector_request::config).
class collector_config {
public:
  virtual ~collector_config() = default;
};

// What the tools in play report about themselves ("triton" -> "3.6.0", "gpu" -> "NVIDIA H200,
// 580.159.04"); recorded in each trial and in baseline fingerprints.
using tool_version_map = std::map<std::string, std::string>;

// Everything a wrap may depend on besides its own options.
struct plan_context {
  env_map env;  // the payload's environment
  // `sweep run --dry-run`: a missing profiler binary is named in the printed argv
  // ("<ncu: not installed>") instead of refusing the wrap.
  bool dry_run = false;
};

// Everything reading a capture may depend on besides the files.
struct read_context {
  const collector_config* config = nullptr;  // never null when a collector is called
  tool_version_map versions;  // what probe_versions recorded for this trial (empty in `check`)
  // Whether anything will read capture::frames and placements (an under(...) check); when false
  // a reader may leave them empty and skip building the call tree.
  bool frames_needed = true;
};

// The start of a file, for telling which profiler wrote it without parsing it.
struct file_sample {
  std::filesystem::path path;
  std::string name;  // the file name alone
  std::string head;  // its first bytes (8 KiB at most)

  [[nodiscard]] bool head_contains(std::string_view text) const {
    return head.find(text) != std::string::npos;
  }
  // The first byte that is not white space ('\0' for none): '{' or '[' mean JSON.
  [[nodiscard]] char first_non_blank() const {
    const auto at = head.find_first_not_of(" \t\r\n");
    return at == std::string::npos ? '\0' : head[at];
  }
  // The first line of the head, without its line break.
  [[nodiscard]] std::string_view first_line() const {
    return std::string_view(head).substr(0, head.find('\n'));
  }
};

class collector_base {
public:
  virtual ~collector_base() = default;

  [[nodiscard]] virtual std::string_view name() const = 0;
  // One line for `--help`, error messages and the docs' table, e.g. "NVIDIA Nsight Compute (ncu)".
  [[nodiscard]] virtual std::string_view summary() const = 0;

  // Parses and checks this collector's own options. Throws option_error naming the key.
  [[nodiscard]] virtual std::shared_ptr<const collector_config>
  parse_options(const option_map& options) const = 0;
  // Rules involving other requested collectors (every request's config is already parsed).
  // Throws option_error.
  virtual void check_companions(const collector_request& /*own*/,
                                const std::vector<collector_request>& /*all*/) const {}

  // The versions of the tools this collector runs, for the trial record and the baseline
  // fingerprint. Runs small commands (`--version`); never throws.
  [[nodiscard]] virtual tool_version_map probe_versions(const collector_config& /*config*/,
                                                        const std::vector<std::string>& /*command*/,
                                                        const env_map& /*env*/) const {
    return {};
  }

  // nullopt when it can run here; otherwise why not (the test is skipped, exit 77).
  [[nodiscard]] virtual std::optional<std::string>
  unavailable_reason(const collector_config& config, const env_map& env,
                     const tool_version_map& versions) const = 0;

  // Wraps `inner`: argv and environment of everything inside this collector. `output_dir` is this
  // collector's private output directory (created empty by the caller). Throws recipe_error when
  // the command cannot be wrapped, skip_error when the profiler is missing (unless dry_run).
  [[nodiscard]] virtual launch_plan wrap(launch_plan inner, const collector_config& config,
                                         const std::filesystem::path& output_dir,
                                         const plan_context& context) const = 0;

  // How this collector's own file-name syntax spells the rank variable in an output path, so each
  // rank of a multi-rank payload writes its own directory. nullopt: the tool has none, and
  // `aorta rank-exec` substitutes the rank before the tool starts.
  [[nodiscard]] virtual std::optional<std::string> rank_path_macro() const { return std::nullopt; }

  // Reads what the profiler wrote under `output` (its directory, or one file given to
  // `aorta check`). Throws capture_error for unreadable or malformed files; an absent or empty
  // directory gives an empty capture.
  [[nodiscard]] virtual capture read_capture(const std::filesystem::path& output,
                                             const read_context& context) const = 0;

  // Whether `file` is one this profiler writes, so `aorta check FILE|DIR` and `aorta view` pick
  // the reader without --collector. Names and the first bytes only: it runs on every file below a
  // directory. A file should be recognised by one collector; the first in wrap order wins.
  [[nodiscard]] virtual bool recognises(const file_sample& /*file*/) const { return false; }
  // How messages name this profiler's files: "an ncu CSV", "a compute-sanitizer log".
  [[nodiscard]] virtual std::string format_description() const {
    return std::string(summary()) + " output";
  }

  // Why a capture came back empty, with the likely causes and fixes for this profiler.
  [[nodiscard]] virtual std::string explain_empty(const capture& empty,
                                                  const collector_config& config) const;

  // A failure the capture itself reports, whatever the checks say (compute-sanitizer's errors):
  // the trial fails with this reason. nullopt when the capture reports none.
  [[nodiscard]] virtual std::optional<std::string>
  failure_in_capture(const capture& /*got*/, const collector_config& /*config*/) const {
    return std::nullopt;
  }

  // Whether it wraps and captures at all (false for the validated-only names of the original:
  // numerics, layer_numerics, amd_log).
  [[nodiscard]] virtual bool attaches() const { return true; }
  // Whether its captures hold times (kernel time, cycles) that move between runs, so cells judge
  // them over rounds with the paired test; false when they hold only exact counts (callgrind's Ir,
  // a checker's errors), which need no rounds.
  [[nodiscard]] virtual bool measures_time() const { return true; }
  // Refuses, before any trial runs, a check that reads what this collector collects but its
  // options leave out (ncu's counters): throws recipe_error naming the option to add. `own` is
  // this collector's request in `spec`, nullptr when the recipe does not request it.
  virtual void require_for_checks(const collector_request* /*own*/, const recipe& /*spec*/,
                                  const std::vector<check_expression>& /*checks*/) const {}
  // Whether it needs a GPU (callgrind does not).
  [[nodiscard]] virtual bool profiles_gpu() const { return true; }
  // Of a collector that attaches but profiles no GPU: why a GPU profiler in the same run would
  // spoil one of the two captures, for the refusal of such a pair (validate_collectors).
  [[nodiscard]] virtual std::string_view gpu_profiler_conflict() const {
    return "a GPU profiler in the same run slows the process and changes what this collector "
           "measures";
  }
  // The platforms it can capture on with this configuration: by default any GPU vendor for a GPU
  // profiler, the CPU otherwise.
  [[nodiscard]] virtual platform_set platforms(const collector_config& /*config*/) const {
    return profiles_gpu() ? platform_set{platform::nvidia, platform::amd}
                          : platform_set{platform::cpu};
  }
};

// A collector's own view of its parsed options. Throws std::bad_cast if a config of another
// collector is passed (a programming error, not a user's).
template <typename Config>
[[nodiscard]] const Config& config_as(const collector_config& config) {
  return dynamic_cast<const Config&>(config);
}

// Every collector, in wrap order (outermost first). The only list of collectors there is.
[[nodiscard]] const std::vector<const collector_base*>& collectors();
// Their names, in the same order.
[[nodiscard]] const std::vector<std::string>& collector_names();
// nullptr for an unknown name.
[[nodiscard]] const collector_base* find_collector(std::string_view name);

// The request's parsed options: request.config, or parsed now for a request that did not pass
// through validate_collectors(). Throws option_error.
[[nodiscard]] std::shared_ptr<const collector_config> config_of(const collector_request& request);

// Unknown names, each request's options (parsed into request.config) and the rules between
// collectors. Throws option_error.
void validate_collectors(std::vector<collector_request>& requested);
// The same checks, for requests that are not kept (nothing is stored).
void validate_collectors(const std::vector<collector_request>& requested);

// Asks every collector to refuse the checks its options cannot feed (require_for_checks), so a
// check that could only fail after every trial ran is a recipe error (exit 64) instead.
void require_collectors_for_checks(const recipe& spec, const std::vector<check_expression>& checks);

// Where a recipe's collectors can all capture: the intersection of each attaching collector's
// platforms (every platform when none attaches). Unknown names count as attaching nowhere.
[[nodiscard]] platform_set collector_platforms(const std::vector<collector_request>& requested);

// Wraps `command` with every attaching collector in `requested`, outermost first, each writing into
// `trial_dir / <collector name>`. With no attaching collector the argv is returned unchanged.
[[nodiscard]] launch_plan plan_launch(const std::vector<collector_request>& requested,
                                      const std::vector<std::string>& command,
                                      const std::filesystem::path& trial_dir,
                                      const plan_context& context);

}  // namespace aorta
