#include "ranks/rank_identity.hpp"

#include "aorta/error.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <charconv>

namespace aorta::detail {
namespace {

std::optional<int> whole_number(const std::string& text) {
  int value = -1;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc{} || end != text.data() + text.size() || value < 0 ||
      value >= max_ranks) {
    return std::nullopt;
  }
  return value;
}

}  // namespace

const std::vector<std::string>& rank_variables() {
  static const std::vector<std::string> names{"RANK", "OMPI_COMM_WORLD_RANK", "PMI_RANK",
                                              "SLURM_PROCID"};
  return names;
}

const std::vector<std::string>& world_size_variables() {
  static const std::vector<std::string> names{"WORLD_SIZE", "OMPI_COMM_WORLD_SIZE", "PMI_SIZE",
                                              "SLURM_NTASKS"};
  return names;
}

rank_identity identify_rank(const env_map& env, const std::vector<std::string>& variables) {
  for (const auto& variable : variables) {
    const auto found = env.find(variable);
    if (found == env.end() || found->second.empty()) continue;
    const auto rank = whole_number(found->second);
    if (!rank) {
      throw usage_error(fmt::format("{}='{}' is not a rank (a whole number from 0)", variable,
                                    found->second));
    }
    rank_identity identity{*rank, variable, std::nullopt};
    const auto& ranks = rank_variables();
    const auto& sizes = world_size_variables();
    for (std::size_t i = 0; i < ranks.size(); ++i) {
      if (ranks[i] != variable) continue;
      if (const auto size = env.find(sizes[i]); size != env.end()) {
        identity.world_size = whole_number(size->second);
      }
    }
    return identity;
  }
  throw usage_error(fmt::format(
      "cannot identify this process's rank: none of {} is set. The launcher did not give its "
      "processes a rank variable; launch through torchrun, mpirun/mpiexec or srun, or export one "
      "of these variables in each rank's environment",
      fmt::join(variables, ", ")));
}

}  // namespace aorta::detail
