// Finding the program a bare name names, the one way aorta searches a PATH: as execvp does, over
// an explicit environment (the child's, not ours: aorta owns the child's environment), so that a
// plan can be computed and tested for an environment that is not this process's.
#pragma once

#include "aorta/launch_plan.hpp"

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace aorta::detail {

// A regular file (after following links) that this process may execute.
[[nodiscard]] bool is_executable_file(const std::filesystem::path& path);

// The first executable `<entry>/<name>` over the entries of environment["PATH"], as execvp
// searches: an empty entry means the current directory. Relative entries are checked from
// `working_directory` when one is given (the child's, after its chdir) and returned as written.
// nullopt when PATH is unset, `name` is empty, or no entry holds it.
[[nodiscard]] std::optional<std::filesystem::path>
search_path(std::string_view name, const env_map& environment,
            const std::filesystem::path& working_directory = {});

// argv0 containing a '/' is returned unchanged (the kernel resolves it, relative to the child's
// working directory); a bare name goes through search_path. Throws setup_error when nothing is
// found.
[[nodiscard]] std::string resolve_executable(const std::string& argv0, const env_map& environment,
                                             const std::filesystem::path& working_directory);

}  // namespace aorta::detail
