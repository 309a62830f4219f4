// After a multi-rank launch: which ranks wrote what, read into one capture set per rank, and the
// problems that must fail the trial (a missing rank, an empty rank, a rank that could not start).
#pragma once

#include "aorta/capture.hpp"
#include "aorta/recipe.hpp"

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace aorta::detail {

struct rank_reading {
  std::vector<rank_captures> ranks;   // by rank
  std::vector<capture> summed;        // one per attaching collector, sum_over_ranks
  std::vector<std::string> problems;  // each names its rank; any one fails the trial
  int expected = 0;                   // the number of ranks that had to write
  int complete = 0;                   // ranks whose every capture is non-empty
  int interrupted_by = 0;  // the signal that stopped a read (the reading ended there), or 0
  std::string interrupt;   // that read's error, naming the rank and the file
};

// `expected`: the recipe's ranks: or the launcher's count; without one, the largest world size a
// rank reported (WORLD_SIZE, OMPI_COMM_WORLD_SIZE, PMI_SIZE, SLURM_NTASKS). `versions`: the
// trial's tool versions, given to each collector's reader (Proton's backend needs Triton's).
// `frames_needed`: whether a check reads where kernels ran (read_context::frames_needed).
[[nodiscard]] rank_reading
read_rank_captures(const recipe& spec, const std::filesystem::path& trial_dir,
                   std::optional<int> expected,
                   const std::map<std::string, std::string>& versions = {},
                   bool frames_needed = true);

}  // namespace aorta::detail
