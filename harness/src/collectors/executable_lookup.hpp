// Finding profiler binaries and interpreters: $VAR overrides, ~ expansion, and the PATH search of
// process/executable_lookup.hpp (the only one).
#pragma once

#include "aorta/launch_plan.hpp"
#include "process/executable_lookup.hpp"

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace aorta::detail {

// "~" and "~/x" become $HOME and $HOME/x (HOME taken from `env`); anything else is unchanged.
[[nodiscard]] std::string expand_home(std::string_view value, const env_map& env);

// Resolves a command name the way exec does: a value containing '/' must itself be an executable
// file, a bare name is looked up on PATH. nullopt when neither holds.
[[nodiscard]] std::optional<std::filesystem::path> resolve_command(std::string_view command,
                                                                   const env_map& env);

// Resolves a `$<VAR>` override or, when VAR is unset or empty, `default_name` on PATH. The result
// keeps a path override as written (after ~ expansion) and gives the PATH hit as a full path.
// Throws skip_error: `what_for` names the collector in the message, `fix` tells what to install.
[[nodiscard]] std::string resolve_tool(const env_map& env, std::string_view variable,
                                       std::string_view default_name, std::string_view what_for,
                                       std::string_view fix);

// resolve_tool, except that when the variable is unset and PATH does not hold `default_name`, the
// first executable of `standard_locations` (where installers put the tool) is taken first.
[[nodiscard]] std::string
resolve_tool_or_standard(const env_map& env, std::string_view variable,
                         std::string_view default_name, std::string_view what_for,
                         std::string_view fix,
                         const std::vector<std::filesystem::path>& standard_locations);

}  // namespace aorta::detail
