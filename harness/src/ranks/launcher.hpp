// Recognising a multi-rank launch (torchrun, mpirun/mpiexec, srun) in a payload's argv and
// splitting it into the launcher's part and the command each rank runs.
#pragma once

#include "aorta/launch_plan.hpp"

#include <optional>
#include <string>
#include <vector>

namespace aorta::detail {

struct launcher_split {
  std::string launcher;                    // "torchrun", "mpirun", "srun", ...
  std::vector<std::string> launcher_argv;  // up to, not including, the per-rank command
  std::vector<std::string> rank_command;   // what every rank runs
  std::optional<int> ranks;                // how many ranks the arguments ask for, when they say
  std::vector<std::string> rank_variables;  // where a rank of this launcher finds its number
};

// nullopt when argv[0] is no known launcher. A known launcher whose per-rank command cannot be
// found (no positional argument after its options) is a usage_error naming the launcher and the
// fix. torchrun gets --no-python and its script becomes `<python> script.py ...`, with the
// interpreter of torchrun's own shebang (python3 when it cannot be read).
[[nodiscard]] std::optional<launcher_split> split_launcher(const std::vector<std::string>& argv,
                                                          const env_map& env);

}  // namespace aorta::detail
