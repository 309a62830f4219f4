// The words around the commands (docs/cli.md, "One vocabulary"): `aorta help [COMMAND]`, what a
// mistyped or missing command is told, the `--` hint of every command that takes a payload, and
// the value names every option shows in its help.
#pragma once

#include "cli/commands.hpp"

#include <CLI/CLI.hpp>

#include <string>
#include <vector>

namespace aorta::cli {

// `aorta help [COMMAND [SUBCOMMAND]]`: the help of the tool or of one command.
void add_help_command(CLI::App& app, action& selected);

// The usage error for a first word that names no command: the closest command (or the one a
// common guess means: `run` -> `sweep run`) and the list.
[[nodiscard]] std::string unknown_command_message(const CLI::App& app, const std::string& word);

// The usage error for `aorta` alone.
[[nodiscard]] std::string missing_command_message(const CLI::App& app);

// True for the commands that run a payload given after `--`.
[[nodiscard]] bool takes_payload(const std::string& command_path);

// The usage error for arguments no option took, in the order given, with the `--` hint when the
// command takes a payload and none was separated.
[[nodiscard]] std::string stray_arguments_message(const std::string& command_path,
                                                  const std::vector<std::string>& stray,
                                                  bool separator_seen);

// Gives every option and positional its value name from one table (RECIPE, DIR, N, EXPR, ...), so
// the same option reads the same in every command's help.
void apply_value_names(CLI::App& app);

}  // namespace aorta::cli
