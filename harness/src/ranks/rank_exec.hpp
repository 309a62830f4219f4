// `aorta rank-exec`: the per-rank entry a launcher starts on every rank. It finds the rank, claims
// `<trial>/rank_<r>/` (a second process claiming the same rank is refused), creates the
// collectors' directories there, exports AORTA_RANK, substitutes @AORTA_RANK@, and execs the
// collectors' wrap of the rank's command.
#pragma once

#include "reporting/reporter.hpp"

#include <filesystem>
#include <string>
#include <vector>

namespace aorta::detail {

struct rank_exec_request {
  std::filesystem::path trial_dir;
  std::vector<std::string> collectors;
  std::vector<std::string> rank_from;  // empty: rank_variables()
  std::vector<std::string> command;
};

// Where a rank that could not start says why, for the parent to name it:
// `<trial>/rank_errors/<host>.<pid>.txt`.
[[nodiscard]] std::filesystem::path rank_errors_directory(const std::filesystem::path& trial_dir);

// Does not return on success (execvp). Returns 64 when the rank cannot be identified or is claimed
// twice, 127 when the command cannot be executed; the reason is reported and written under
// rank_errors_directory().
[[nodiscard]] int run_rank_exec(const rank_exec_request& request, reporting::reporter& report);

}  // namespace aorta::detail
