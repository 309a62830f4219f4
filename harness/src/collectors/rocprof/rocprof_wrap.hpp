// How the rocprof collector wraps a command with rocprofv3 (docs/collectors.md), as pure functions of
// the typed options so the exact argv can be computed and tested anywhere.
#pragma once

#include "aorta/launch_plan.hpp"
#include "collectors/rocprof/rocprof_options.hpp"

#include <filesystem>
#include <string>
#include <vector>

namespace aorta {

// `<binary> -d <out> -o aorta --output-format <fmt> <trace flags> [--stats]
//  -S --summary-output-file rocprof_summary [-u <units>] [--kernel-include-regex <re>]
//  [--pmc <c>...] --`: the prefix to put in front of the command. The output format is always
// named because rocprofv3's own default is a SQLite rocpd database, which aorta does not read.
[[nodiscard]] std::vector<std::string> rocprof_argv(const rocprof_options& options,
                                                    const std::filesystem::path& output_dir,
                                                    const std::string& rocprof_binary);

// `$ROCPROF_BIN` (leading ~ expanded; a value with '/' must be an executable file, a bare name is
// looked up on PATH), else `rocprofv3` on env's PATH. Throws skip_error naming ROCPROF_BIN and
// the fix.
[[nodiscard]] std::string resolve_rocprof_binary(const env_map& env);

}  // namespace aorta
