// How the ncu collector wraps a command with NVIDIA Nsight Compute, as pure functions of the typed
// options.
#pragma once

#include "aorta/launch_plan.hpp"
#include "collectors/ncu/ncu_options.hpp"

#include <filesystem>
#include <string>
#include <vector>

namespace aorta {

// The file ncu writes its CSV to, inside the collector's output directory.
inline constexpr const char* ncu_log_file_name = "ncu.csv";

// `<binary> --target-processes all --clock-control <cc> --metrics <m1,m2> --csv --page details
//  --print-units base --log-file <out>/ncu.csv [-k regex:<re>] [--launch-skip N]
//  [--launch-count N]`: the prefix to put in front of the command (ncu takes the application as
// its first non-option argument, so there is no separator). The details page gives one row per
// (launch, metric) with the unit in its own column; base units keep the values comparable.
[[nodiscard]] std::vector<std::string> ncu_argv(const ncu_options& options,
                                                const std::filesystem::path& output_dir,
                                                const std::string& ncu_binary);

// Where Nsight Compute installs itself when it is not on PATH, best first, under `root`:
// <root>/usr/local/cuda/bin/ncu, then <root>/opt/nvidia/nsight-compute/<version>/ncu, newest
// version first. Only candidates that exist as executable files are listed.
[[nodiscard]] std::vector<std::filesystem::path>
ncu_standard_locations(const std::filesystem::path& root = "/");

// `$NCU_BIN` (same rules as ROCPROF_BIN), else `ncu` on env's PATH, else the first of
// `standard_locations`. Throws skip_error naming NCU_BIN and the fix.
[[nodiscard]] std::string resolve_ncu_binary(
    const env_map& env,
    const std::vector<std::filesystem::path>& standard_locations = ncu_standard_locations());

}  // namespace aorta
