// One trial: prepare its directory, launch the wrapped command, read the captures, compute the
// metrics, evaluate the checks, write result.json.
#pragma once

#include "aorta/check.hpp"
#include "aorta/launch_plan.hpp"
#include "aorta/recipe.hpp"
#include "aorta/trial_record.hpp"
#include "reporting/reporter.hpp"

#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace aorta::detail {

struct trial_console;

// recipe::timeout_key when `sweep run --timeout` set the limit instead of the recipe.
inline constexpr const char* command_line_timeout_key = "--timeout";

struct trial_setup {
  const recipe* spec = nullptr;
  // Shared by every trial (and every cell) of a sweep, never copied per cell. Null: none.
  std::shared_ptr<const std::vector<check_expression>> checks;
  std::vector<std::string> command;
  // Metric names shown besides the checks' ("all": every one); shared as the checks are.
  std::shared_ptr<const std::vector<std::string>> measures;
  env_map environment;  // the parent's environment plus GPU pinning
  std::filesystem::path trial_dir;
  std::filesystem::path working_directory;  // the payload's; empty: aorta's own
  int index = 0;
  bool dry_run = false;
  bool require_profiler = false;
  std::map<std::string, std::string> versions;
  std::optional<cell_coordinates> cell;  // a trial of a recipe with cells
  // Below --verbose: the trial's lines are held back and filed here, and the payload's output goes
  // to its logs only. Null: every line as it happens (--verbose, a dry run).
  trial_console* console = nullptr;
};

// The trial's account goes to `report` as events; the payload's output to its logs (and, with no
// console, to the terminal as well).
[[nodiscard]] trial_record run_trial(const trial_setup& setup, reporting::reporter& report);

// A trial that cannot start here (a collector or the GPU is missing): its result.json still records
// the verdict and why, so reports show the skip instead of nothing.
[[nodiscard]] trial_record record_unrunnable_trial(const trial_setup& setup, verdict outcome,
                                                   const std::string& reason);

}  // namespace aorta::detail
