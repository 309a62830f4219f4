// Steps of `aorta sweep run` that a run with cells takes per cell (cells/cell_sweep.cpp) as the
// plain run takes them once.
#pragma once

#include "aorta/error.hpp"
#include "aorta/launch_plan.hpp"
#include "aorta/platform.hpp"
#include "aorta/recipe.hpp"
#include "aorta/trial_record.hpp"
#include "reporting/reporter.hpp"

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace aorta::detail {

// Why a collector of the recipe cannot capture here (no GPU, the tool missing); nullopt when
// every attaching collector can.
[[nodiscard]] std::optional<std::string>
unavailable_collector(const recipe& spec, const env_map& env,
                      const std::map<std::string, std::string>& versions);

// A test for another platform is not applicable on this lane, so --require-profiler must not turn
// it into a failure (an NVIDIA lane can be green while the rocprof tests stay AMD's).
[[nodiscard]] std::optional<std::string>
not_applicable_reason(const recipe& spec, const std::optional<platform_set>& lane);

// trial_<n> directories (n >= trials) a previous, longer run left behind would otherwise be
// aggregated into this run's report.
void remove_stale_trials(const std::filesystem::path& output_dir, int trials);

// The run's exit code from the trials' verdicts: any failure fails, all skipped skips.
[[nodiscard]] exit_code verdicts_exit_code(const std::vector<trial_record>& trials);

// Reports the failed and skipped trials and the totals; the run's exit code from the verdicts.
[[nodiscard]] exit_code summarize(const std::vector<trial_record>& trials,
                                  const std::filesystem::path& output, reporting::reporter& report);

}  // namespace aorta::detail
