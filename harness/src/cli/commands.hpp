// The aorta subcommands. Each registers itself on the CLI11 app and leaves an action to run once
// parsing succeeded; the action returns the process exit code.
#pragma once

#include <CLI/CLI.hpp>

#include <functional>
#include <string>
#include <vector>

namespace aorta::cli {

using action = std::function<int()>;

// `command_after_separator` is everything after the first bare `--` of the command line, kept
// out of CLI11 so it reaches the payload literally.
void add_sweep_command(CLI::App& app, action& selected,
                       const std::vector<std::string>& command_after_separator);
// `aorta ab` (cli/ab_command.cpp): a sweep whose recipe becomes the cells base and head.
void add_ab_command(CLI::App& app, action& selected,
                    const std::vector<std::string>& command_after_separator);
// `aorta bisect` (cli/bisect_command.cpp): a commit range walked with one cells run per step.
void add_bisect_command(CLI::App& app, action& selected,
                        const std::vector<std::string>& command_after_separator);
// `aorta calibrate` (cli/calibrate_command.cpp): an A/A run recorded as the baseline.
void add_calibrate_command(CLI::App& app, action& selected,
                           const std::vector<std::string>& command_after_separator);
void add_rank_exec_command(CLI::App& app, action& selected,
                           const std::vector<std::string>& command_after_separator);
void add_validate_command(CLI::App& app, action& selected);
void add_check_command(CLI::App& app, action& selected);
void add_view_command(CLI::App& app, action& selected);
void add_report_command(CLI::App& app, action& selected);
// `aorta baseline record|show` and `aorta compare` (cli/baseline_commands.cpp).
void add_baseline_command(CLI::App& app, action& selected);
void add_compare_command(CLI::App& app, action& selected);
void add_collectors_command(CLI::App& app, action& selected);
// `aorta diff A B` (cli/diff_command.cpp): the change between two captures, culprit first.
void add_diff_command(CLI::App& app, action& selected);
// `aorta history add|changes|show` (cli/history_commands.cpp): the results store over commits.
void add_history_command(CLI::App& app, action& selected);

}  // namespace aorta::cli
