#include "cli/history_baseline_option.hpp"

#include "aorta/error.hpp"
#include "aorta/launch_plan.hpp"
#include "collectors/collector_support.hpp"
#include "history/history_baseline.hpp"

#include <fmt/format.h>

namespace aorta::cli {

std::optional<std::string> git_line(const std::vector<std::string>& arguments) {
  std::vector<std::string> argv{"git"};
  argv.insert(argv.end(), arguments.begin(), arguments.end());
  return detail::first_output_line(argv, current_environment());
}

void add_history_baseline_options(CLI::App& command, history_baseline_flags& flags) {
  flags.store_option =
      command.add_option("--history", flags.store,
                         "History store of --baseline history[:BRANCH]: an SQLite file or a "
                         "postgresql:// URL (default: aorta-history.sqlite)");
  flags.commits_option =
      command
          .add_option("--history-commits", flags.max_commits,
                      "With --baseline history: at most this many of the branch's newest commits "
                      "since its last change point, 1 to 100000 (default 20)")
          ->check(CLI::Range(1, detail::max_history_baseline_commits).description(""));
}

void require_no_history_options(const std::string& baseline, const history_baseline_flags& flags) {
  if (detail::history_baseline_branch(baseline)) return;
  for (const CLI::Option* given : {flags.store_option, flags.commits_option}) {
    if (given == nullptr || given->count() == 0) continue;
    throw usage_error(fmt::format(
        "{} goes with --baseline history[:BRANCH] (it says which store, and how much of it, that "
        "baseline is read from), and this command's baseline is {}; add --baseline history (or "
        "history:BRANCH) to gate against the store, or drop {} (results go into a store with "
        "`aorta history add DIR --history STORE`)",
        given->get_name(), baseline.empty() ? std::string("not given") : "'" + baseline + "'",
        given->get_name()));
  }
}

std::optional<history_baseline_source>
resolve_history_baseline(const std::string& baseline, const history_baseline_flags& flags) {
  auto branch = detail::history_baseline_branch(baseline);
  if (!branch) {
    require_no_history_options(baseline, flags);
    return std::nullopt;
  }
  if (branch->empty()) {
    const auto checked_out = git_line({"rev-parse", "--abbrev-ref", "HEAD"});
    if (!checked_out || *checked_out == "HEAD") {
      throw usage_error("--baseline history: git cannot tell the branch checked out here (not a "
                        "git work tree, or a detached HEAD); name it: --baseline history:BRANCH");
    }
    branch = checked_out;
  }
  history_baseline_source source;
  source.store = flags.store;
  source.branch = *branch;
  source.max_commits = flags.max_commits;
  source.commit = git_line({"rev-parse", "HEAD"}).value_or("");
  return source;
}

}  // namespace aorta::cli
