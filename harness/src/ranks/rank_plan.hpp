// The launch of a multi-rank payload: the launcher starts `aorta rank-exec` once per rank, and
// rank-exec runs the collectors' wrap of the per-rank command with that rank's output directories.
#pragma once

#include "aorta/collector.hpp"

#include "aorta/launch_plan.hpp"
#include "aorta/recipe.hpp"
#include "ranks/launcher.hpp"

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace aorta::detail {

// Substituted by `aorta rank-exec` with the rank, in its argv and the AORTA_PROTON_* variables:
// for Proton, which has no file-name macro, and ncu, whose --log-file expands none.
inline constexpr std::string_view rank_placeholder = "@AORTA_RANK@";
// What rank-exec exports: the one variable the tools' own macros read, whatever the launcher.
inline constexpr std::string_view rank_export = "AORTA_RANK";

// `<trial>/rank_<r>`.
[[nodiscard]] std::filesystem::path rank_directory(const std::filesystem::path& trial_dir, int rank);

struct rank_launch {
  launcher_split split;
  std::optional<int> expected_ranks;  // the recipe's `ranks:`, else what the launcher says
};

// nullopt for a single-process payload. Throws usage_error when the recipe asks for ranks the
// command cannot give (no known launcher, or a launcher starting another number of ranks).
[[nodiscard]] std::optional<rank_launch> detect_rank_launch(const recipe& spec,
                                                           const std::vector<std::string>& command,
                                                           const env_map& env);

// launcher argv + `<aorta> rank-exec --trial-dir T --collectors a,b --rank-from V,... --` + the
// collectors' wrap of the per-rank command, each output directory named with the tool's own
// macro for $AORTA_RANK (valgrind `%q{AORTA_RANK}`, rocprofv3 `%env{AORTA_RANK}%`) or with
// @AORTA_RANK@ (Proton, and ncu, whose --log-file takes no macro).
[[nodiscard]] launch_plan plan_rank_launch(const std::vector<collector_request>& requested,
                                           const rank_launch& ranks,
                                           const std::filesystem::path& trial_dir,
                                           const plan_context& context,
                                           const std::string& aorta_binary);

// What a trial launches: the ranks when `command` starts a known launcher (or the recipe asks for
// ranks), and the wrapped plan — per rank through `aorta rank-exec`, or around the command.
struct trial_launch {
  std::optional<rank_launch> ranks;
  launch_plan plan;
};
[[nodiscard]] trial_launch plan_trial_launch(const recipe& spec,
                                             const std::vector<std::string>& command,
                                             const std::filesystem::path& trial_dir,
                                             const plan_context& context);

// This executable's path (/proc/self/exe), for the launcher to start on every rank.
[[nodiscard]] std::string own_executable();

}  // namespace aorta::detail
