// How the gbench collector wraps a Google Benchmark executable, as a pure function of the typed
// options.
#pragma once

#include "collectors/gbench/gbench_options.hpp"

#include <filesystem>
#include <string>
#include <vector>

namespace aorta {

// `--benchmark_out=<out>/gbench.json --benchmark_out_format=json [--benchmark_repetitions=N]`:
// the flags to put after the command. Google Benchmark takes the last of a repeated flag, so
// these win over the same flags in the recipe's command, and the console output stays as the
// user chose it.
[[nodiscard]] std::vector<std::string> gbench_flags(const gbench_options& options,
                                                    const std::filesystem::path& output_dir);

}  // namespace aorta
