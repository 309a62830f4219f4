// Which rank a process of a multi-rank launch is, read from the variables the launchers set.
#pragma once

#include "aorta/launch_plan.hpp"

#include <optional>
#include <string>
#include <vector>

namespace aorta::detail {

// The most ranks aorta accepts from any source (a rank variable, a world size in rank.json, a
// launcher's -np): far beyond any job, small enough that nothing sized by it can exhaust memory.
inline constexpr int max_ranks = 1 << 20;

// RANK (torchrun), OMPI_COMM_WORLD_RANK (Open MPI), PMI_RANK (MPICH, Intel MPI), SLURM_PROCID
// (srun), in this order: torchrun under srun sets RANK to the global rank while SLURM_PROCID is only
// the srun task, so the launcher closest to the process comes first.
[[nodiscard]] const std::vector<std::string>& rank_variables();

// The size variables in the same order: WORLD_SIZE, OMPI_COMM_WORLD_SIZE, PMI_SIZE, SLURM_NTASKS.
[[nodiscard]] const std::vector<std::string>& world_size_variables();

struct rank_identity {
  int rank = 0;
  std::string variable;             // where it came from
  std::optional<int> world_size;    // from the matching size variable, when set
};

// The first of `variables` that is set. Throws usage_error naming every variable looked at when
// none is set, and the variable and value when it is not a whole number in [0, max_ranks).
[[nodiscard]] rank_identity identify_rank(const env_map& env,
                                          const std::vector<std::string>& variables);

}  // namespace aorta::detail
