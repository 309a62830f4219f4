// One small interface per profiler. Each collector validates its options, says whether it can run
// here, wraps a command, and reads back what its profiler wrote.
#pragma once

#include "aorta/capture.hpp"
#include "aorta/launch_plan.hpp"
#include "aorta/platform.hpp"
#include "aorta/recipe.hpp"

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace aorta {

class collector_base {
public:
  virtual ~collector_base() = default;

  [[nodiscard]] virtual std::string_view name() const = 0;

  // Options of this collector, and the rules that involve other requested collectors. Throws
  // option_error (key set when one option is at fault).
  virtual void validate(const option_map& options,
                        const std::vector<collector_request>& all_requested) const = 0;

  // nullopt when it can run here; otherwise the reason it cannot (the test is skipped, exit 77).
  [[nodiscard]] virtual std::optional<std::string> unavailable_reason(const option_map& options,
                                                                      const env_map& env) const = 0;

  // Wraps `inner` (argv and env changes of everything inside this collector). `output_dir` is this
  // collector's private output directory (created empty by the caller). Throws recipe_error when
  // the command cannot be wrapped (e.g. proton cli mode around a non-Python command).
  [[nodiscard]] virtual launch_plan wrap(launch_plan inner, const option_map& options,
                                         const std::filesystem::path& output_dir,
                                         const env_map& env) const = 0;

  // Reads what the profiler wrote under `output_dir`. Throws capture_error for unreadable or
  // malformed files; an absent or empty directory gives an empty capture.
  [[nodiscard]] virtual capture read_capture(const std::filesystem::path& output_dir,
                                             const option_map& options) const = 0;

  // Whether it wraps and captures at all (false for the validated-only names of the original:
  // numerics, layer_numerics, amd_log).
  [[nodiscard]] virtual bool attaches() const { return true; }
  // Whether it profiles GPU work (callgrind does not).
  [[nodiscard]] virtual bool profiles_gpu() const { return true; }
  // The platforms it can capture on with these options (already validated): by default any GPU
  // vendor for a GPU profiler, the CPU otherwise.
  [[nodiscard]] virtual platform_set platforms(const option_map& /*options*/) const {
    return profiles_gpu() ? platform_set{platform::nvidia, platform::amd}
                          : platform_set{platform::cpu};
  }
};

// Every known collector name, in wrap order (outermost first): rocprof, ncu, callgrind, proton,
// then the validated-only names.
[[nodiscard]] const std::vector<std::string>& collector_names();

// nullptr for an unknown name.
[[nodiscard]] const collector_base* find_collector(std::string_view name);

// Unknown names, per-collector options and cross-collector conflicts. Throws option_error.
void validate_collectors(const std::vector<collector_request>& requested);

// Where a recipe's collectors can all capture: the intersection of each attaching collector's
// platforms (every platform when none attaches). Unknown names count as attaching nowhere.
[[nodiscard]] platform_set collector_platforms(const std::vector<collector_request>& requested);

// Wraps `command` with every attaching collector in `requested`, outermost first, each writing into
// `trial_dir / <collector name>`. With no attaching collector the argv is returned unchanged.
[[nodiscard]] launch_plan plan_launch(const std::vector<collector_request>& requested,
                                      const std::vector<std::string>& command,
                                      const std::filesystem::path& trial_dir, const env_map& env);

}  // namespace aorta
