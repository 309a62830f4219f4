// Finding the program a bare argv[0] names, on the child's PATH rather than ours: aorta owns the
// child's environment, so the PATH the child would search is the one that decides.
#pragma once

#include "aorta/launch_plan.hpp"

#include <filesystem>
#include <string>

namespace aorta::detail {

// argv0 containing a '/' is returned unchanged (the kernel resolves it, relative to the child's
// working directory). A bare name is searched in environment["PATH"], first match that is an
// executable regular file wins; relative PATH entries (and the empty entry, meaning ".") are taken
// relative to `working_directory` when one is set. Throws setup_error when nothing is found.
[[nodiscard]] std::string resolve_executable(const std::string& argv0, const env_map& environment,
                                             const std::filesystem::path& working_directory);

}  // namespace aorta::detail
