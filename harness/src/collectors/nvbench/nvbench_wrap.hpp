// How the nvbench collector wraps an nvbench executable, as a pure function of the typed options.
#pragma once

#include "collectors/nvbench/nvbench_options.hpp"

#include <filesystem>
#include <string>
#include <vector>

namespace aorta {

// `--json <out>/nvbench.json [--devices D] [--min-samples N] [--min-time S] [--timeout S]`: the
// flags to put after the command; `--jsonbin` instead of `--json` with `sample_times`, which makes
// nvbench write each state's sample times to <out>/nvbench.json-bin/<n>.bin as well. nvbench
// applies a benchmark option to the benchmark selected last (`--benchmark`), or to every benchmark
// when the command selects none; --json and the console output are global.
[[nodiscard]] std::vector<std::string> nvbench_flags(const nvbench_options& options,
                                                     const std::filesystem::path& output_dir);

}  // namespace aorta
