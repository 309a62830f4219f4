#include "ranks/rank_plan.hpp"

#include "aorta/collector.hpp"
#include "aorta/error.hpp"
#include "collectors/wrap_nesting.hpp"
#include "ranks/rank_identity.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

namespace aorta::detail {

std::filesystem::path rank_directory(const std::filesystem::path& trial_dir, int rank) {
  return trial_dir / fmt::format("rank_{}", rank);
}

std::optional<rank_launch> detect_rank_launch(const recipe& spec,
                                              const std::vector<std::string>& command,
                                              const env_map& env) {
  auto split = split_launcher(command, env);
  if (!split) {
    if (!spec.ranks) return std::nullopt;
    throw usage_error(fmt::format(
        "{}: ranks: {} asks for a multi-rank payload, but aorta cannot identify the ranks of '{}': "
        "it starts one output directory per rank only after a launcher it knows (torchrun, "
        "python -m torch.distributed.run, mpirun, mpiexec, orterun, srun). Fix: launch the "
        "payload through one of them, or remove ranks: for a single-process payload",
        spec.ranks_location.to_string(), *spec.ranks, fmt::join(command, " ")));
  }
  if (split->ranks && *split->ranks > max_ranks) {
    throw usage_error(fmt::format(
        "'{}' starts more than {} ranks (max_ranks), more than aorta accepts. Fix: check the "
        "launcher's rank count (-np, --nproc-per-node x --nnodes, --ntasks)",
        fmt::join(command, " "), max_ranks));
  }
  if (spec.ranks && split->ranks && *spec.ranks != *split->ranks) {
    throw usage_error(fmt::format(
        "{}: ranks: {} but '{}' starts {} rank(s). Fix: make the recipe and the launcher agree",
        spec.ranks_location.to_string(), *spec.ranks, fmt::join(command, " "), *split->ranks));
  }
  rank_launch launch{std::move(*split), spec.ranks};
  if (!launch.expected_ranks) launch.expected_ranks = launch.split.ranks;
  return launch;
}

launch_plan plan_rank_launch(const std::vector<collector_request>& requested,
                             const rank_launch& ranks, const std::filesystem::path& relative_dir,
                             const plan_context& context, const std::string& aorta_binary) {
  // Ranks may start in another working directory, or on another node of a shared filesystem.
  const auto trial_dir = std::filesystem::absolute(relative_dir);
  launch_plan plan;
  plan.argv = ranks.split.rank_command;
  std::vector<std::string> attaching;
  plan = nest_wraps(
      requested, std::move(plan),
      [&trial_dir](const collector_base& collector) {
        // The tool's own file-name macro for the rank where it has one; otherwise rank-exec
        // substitutes the placeholder before the tool starts.
        const std::string rank =
            collector.rank_path_macro().value_or(std::string(rank_placeholder));
        return trial_dir / ("rank_" + rank) / std::string(collector.name());
      },
      context, &attaching);
  std::vector<std::string> argv = ranks.split.launcher_argv;
  argv.insert(argv.end(), {aorta_binary, "rank-exec", "--trial-dir", trial_dir.string()});
  if (!attaching.empty()) {
    argv.insert(argv.end(), {"--collectors", fmt::format("{}", fmt::join(attaching, ","))});
  }
  argv.insert(argv.end(), {"--rank-from", fmt::format("{}", fmt::join(ranks.split.rank_variables,
                                                                      ","))});
  argv.emplace_back("--");
  argv.insert(argv.end(), plan.argv.begin(), plan.argv.end());
  plan.argv = std::move(argv);
  return plan;
}

trial_launch plan_trial_launch(const recipe& spec, const std::vector<std::string>& command,
                               const std::filesystem::path& trial_dir,
                               const plan_context& context) {
  trial_launch launch;
  launch.ranks = detect_rank_launch(spec, command, context.env);
  launch.plan = launch.ranks ? plan_rank_launch(spec.collect, *launch.ranks, trial_dir, context,
                                                own_executable())
                             : plan_launch(spec.collect, command, trial_dir, context);
  return launch;
}

std::string own_executable() {
  std::error_code ec;
  const auto self = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (ec) throw setup_error("cannot find aorta's own executable (/proc/self/exe) to start ranks");
  return self.string();
}

}  // namespace aorta::detail
