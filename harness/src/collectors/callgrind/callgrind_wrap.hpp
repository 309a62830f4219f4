// How the callgrind collector wraps a command with valgrind, as pure functions of the typed
// options.
#pragma once

#include "collectors/callgrind/callgrind_options.hpp"
#include "aorta/launch_plan.hpp"

#include <filesystem>
#include <string>
#include <vector>

namespace aorta {

// `<binary> --tool=callgrind --callgrind-out-file=<out>/callgrind.out.%p
//  [--toggle-collect=<fn>] --cache-sim=<yes|no> [--trace-children=yes]`: the prefix to put in
// front of the command. %p (valgrind expands it to the pid) keeps one file per process when
// children are traced. --cache-sim is always spelled out so the argv recorded in result.json says
// what was measured.
[[nodiscard]] std::vector<std::string> callgrind_argv(const callgrind_options& options,
                                                      const std::filesystem::path& output_dir,
                                                      const std::string& valgrind_binary);

// `$VALGRIND_BIN` (same rules as ROCPROF_BIN), else `valgrind` on env's PATH. Throws skip_error
// naming VALGRIND_BIN and the fix.
[[nodiscard]] std::string resolve_valgrind_binary(const env_map& env);

}  // namespace aorta
