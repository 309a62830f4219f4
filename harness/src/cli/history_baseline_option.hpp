// `--baseline history[:BRANCH]` on `sweep run` and `compare` (docs/history.md, "Baselines from
// history"): the options that go with it and the branch and commit git tells when not given.
#pragma once

#include "aorta/sweep.hpp"

#include <CLI/CLI.hpp>

#include <optional>
#include <string>
#include <vector>

namespace aorta::cli {

inline constexpr const char* default_history_store = "aorta-history.sqlite";

struct history_baseline_flags {
  std::string store = default_history_store;
  int max_commits = 20;
  // Set by add_history_baseline_options: whether the command line gave them.
  const CLI::Option* store_option = nullptr;
  const CLI::Option* commits_option = nullptr;
};

// The first line git prints for `git ARGUMENTS...` in the current directory (argv, never a
// shell); nullopt when git is absent or fails.
[[nodiscard]] std::optional<std::string> git_line(const std::vector<std::string>& arguments);

// --history STORE and --history-commits N.
void add_history_baseline_options(CLI::App& command, history_baseline_flags& flags);

// A usage error when --history or --history-commits was given but `baseline` is not
// history[:BRANCH]: a CI job that names a store expects it read (or written), and would otherwise
// gate against something else without a word. The message names `--baseline history` and
// `aorta history add`.
void require_no_history_options(const std::string& baseline, const history_baseline_flags& flags);

// nullopt when `baseline` names a directory (or is empty), after require_no_history_options.
// `history` alone takes the branch git has checked out
// here (a usage error on a detached checkout, naming history:BRANCH); the commit under test is
// git's HEAD, "" when git cannot tell it.
[[nodiscard]] std::optional<history_baseline_source>
resolve_history_baseline(const std::string& baseline, const history_baseline_flags& flags);

}  // namespace aorta::cli
