// `aorta rank-exec`: the per-rank entry that `aorta sweep run` puts after a launcher
// (docs/distributed.md). Not meant to be typed by hand, but it works by hand too.
#include "cli/commands.hpp"
#include "ranks/rank_exec.hpp"
#include "reporting/console_reporter.hpp"

#include <iostream>
#include <memory>
#include <sstream>

namespace aorta::cli {
namespace {

std::vector<std::string> comma_list(const std::string& text) {
  std::vector<std::string> items;
  std::stringstream stream(text);
  for (std::string item; std::getline(stream, item, ',');) {
    if (!item.empty()) items.push_back(item);
  }
  return items;
}

struct rank_exec_flags {
  std::string trial_dir;
  std::string collectors;
  std::string rank_from;
};

}  // namespace

void add_rank_exec_command(CLI::App& app, action& selected,
                           const std::vector<std::string>& command_after_separator) {
  auto* command = app.add_subcommand(
      "rank-exec", "Per-rank entry of a multi-rank payload: claims <trial>/rank_<r>/ and execs "
                   "the command (started by the launcher, see docs/distributed.md)");
  auto flags = std::make_shared<rank_exec_flags>();
  command->add_option("--trial-dir", flags->trial_dir, "The trial directory")->required();
  command->add_option("--collectors", flags->collectors,
                      "Comma-separated collectors whose directories each rank gets");
  command->add_option("--rank-from", flags->rank_from,
                      "Comma-separated rank variables, first set wins (default: RANK, "
                      "OMPI_COMM_WORLD_RANK, PMI_RANK, SLURM_PROCID)");
  command->callback([&selected, flags, &command_after_separator] {
    selected = [flags, &command_after_separator] {
      detail::rank_exec_request request{flags->trial_dir, comma_list(flags->collectors),
                                        comma_list(flags->rank_from), command_after_separator};
      // Its lines go to stderr only: the payload owns stdout.
      reporting::console_reporter console(std::cerr, std::cerr);
      return detail::run_rank_exec(request, console);
    };
  });
}

}  // namespace aorta::cli
