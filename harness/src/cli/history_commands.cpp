// `aorta history add|changes|show` (docs/history.md): sweep outputs kept in a store per commit,
// and the steps in each series found and shown.
#include "aorta/error.hpp"
#include "aorta/launch_plan.hpp"
#include "cli/commands.hpp"
#include "cli/history_baseline_option.hpp"
#include "cli/history_views.hpp"
#include "collectors/collector_support.hpp"
#include "history/history_store.hpp"
#include "history/iso_time.hpp"
#include "history/run_ingest.hpp"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <memory>
#include <set>

namespace aorta::cli {
namespace fs = std::filesystem;
namespace {

struct history_add_flags {
  std::vector<std::string> directories;
  std::string commit;
  std::string branch;
  std::string time;
  std::string store = default_history_store;
};

// A revision or branch name as the store keeps it: printable, one line, of sane length.
void require_plain_name(const std::string& text, std::string_view option) {
  const bool control = std::any_of(text.begin(), text.end(), [](char c) {
    return static_cast<unsigned char>(c) < 0x20 || c == 0x7f;
  });
  // A leading '-' would reach git as an option (`git show --output=FILE`).
  if (text.empty() || text.size() > 256 || control || text.front() == '-') {
    throw usage_error(fmt::format("{} must be 1 to 256 printable characters not starting with "
                                  "'-' (a commit hash, tag or branch name)",
                                  option));
  }
}

detail::ingest_context resolve_context(const history_add_flags& flags) {
  detail::ingest_context context;
  context.commit = flags.commit;
  if (context.commit.empty()) {
    const auto head = git_line({"rev-parse", "HEAD"});
    if (!head) {
      throw usage_error("history add: no --commit given and git cannot tell the commit here (not "
                        "a git work tree?); give --commit REV");
    }
    context.commit = *head;
  }
  require_plain_name(context.commit, "--commit");
  context.branch = flags.branch;
  if (context.branch.empty() && flags.commit.empty()) {
    const auto branch = git_line({"rev-parse", "--abbrev-ref", "HEAD"});
    if (branch && *branch != "HEAD") context.branch = *branch;  // "HEAD": a detached checkout
  }
  if (!context.branch.empty()) require_plain_name(context.branch, "--branch");
  std::string time = flags.time;
  // The commit's own time orders it among the others; git knows it when the commit is local.
  if (time.empty())
    time = git_line({"show", "-s", "--format=%cI", context.commit, "--"}).value_or("");
  if (!time.empty()) {
    const auto parsed = detail::parse_iso_time(time);
    if (!parsed) {
      throw usage_error(fmt::format("--time '{}' is not an ISO 8601 time (such as "
                                    "2026-12-06T05:00:00Z or 2026-12-06T06:00:00+01:00)",
                                    time));
    }
    context.time = parsed->text;
    context.time_unix = parsed->unix_seconds;
  }
  return context;
}

int add_to_history(const history_add_flags& flags) {
  const detail::ingest_context context = resolve_context(flags);
  std::vector<fs::path> directories(flags.directories.begin(), flags.directories.end());
  const auto runs = detail::read_history_runs(directories, context);
  auto store = detail::open_history_store(flags.store, detail::store_access::read_write);
  const auto outcome = store->add_runs(runs);
  std::set<std::string> tests;
  for (const auto& run : runs) tests.insert(run.test);
  fmt::print(std::cout,
             "aorta: history: {} run(s) of {} test(s) added at commit {} ({} samples) to {}",
             outcome.runs_added, tests.size(), context.commit, outcome.samples_added,
             detail::describe_history_store(flags.store));
  if (outcome.runs_already_present > 0) {
    fmt::print(std::cout, "; {} run(s) were in the store already and were left out",
               outcome.runs_already_present);
  }
  fmt::print(std::cout, "\n");
  return 0;
}

void add_detector_options(CLI::App& command, history_view_flags& flags) {
  command
      .add_option("--history", flags.store,
                  "The store: an SQLite file path or a postgresql:// URL (default: "
                  "aorta-history.sqlite)");
  command
      .add_option("--max-p", flags.detector.max_p,
                  "A step is a change when its permutation p-value is at most this, 1e-6 to 0.5")
      ->check(CLI::Range(1e-6, 0.5).description(""))
      ->capture_default_str();
  command
      .add_option("--permutations", flags.detector.permutations,
                  "Permutations of commits per tested split, 19 to 100000")
      ->check(CLI::Range(19, 100000).description(""))
      ->capture_default_str();
  command
      .add_option("--min-commits", flags.detector.min_side_commits,
                  "Commits on each side of a change, at least; 1 to 1000")
      ->check(CLI::Range(1, 1000).description(""))
      ->capture_default_str();
  command.add_flag("--full-pass", flags.full_pass,
                   "Test every segment again instead of reusing the detector's state saved in "
                   "the store by an earlier pass (the answer is the same; the state is saved "
                   "anew)");
}

void add_history_add(CLI::App& history, action& selected) {
  auto flags = std::make_shared<history_add_flags>();
  auto* add = history.add_subcommand(
      "add", "aorta history add DIR... --commit REV [--branch NAME] [--time ISO-8601] [--history "
             "STORE]: every test and trial under the sweep outputs, once per run");
  add->add_option("directories", flags->directories,
                  "Sweep output directories or CTest aorta-results roots")
      ->required();
  add->add_option("--commit", flags->commit, "The commit measured (default: git rev-parse HEAD)");
  add->add_option("--branch", flags->branch,
                  "Its branch (default: git's current branch when --commit is not given)");
  add->add_option("--time", flags->time,
                  "When the commit was made, ISO 8601; orders commits (default: git's commit "
                  "time, else the trials' start)");
  add->add_option("--history", flags->store,
                  "The store: an SQLite file path or a postgresql:// URL (default: "
                  "aorta-history.sqlite)");
  add->callback([&selected, flags] { selected = [flags] { return add_to_history(*flags); }; });
}

}  // namespace

void add_history_command(CLI::App& app, action& selected) {
  auto* history = app.add_subcommand(
      "history", "Keep every trial of every run per commit in a store; find and show the steps");
  history->require_subcommand(1);
  add_history_add(*history, selected);

  auto changes_flags = std::make_shared<history_view_flags>();
  changes_flags->store = default_history_store;
  auto* changes = history->add_subcommand(
      "changes", "aorta history changes [--history STORE] [--json]: the change points of every "
                 "series (test, quantity, card), with a bisect hint each");
  add_detector_options(*changes, *changes_flags);
  changes->add_option("--test", changes_flags->test, "Only this test");
  changes->add_option("--quantity", changes_flags->quantity, "Only this quantity");
  changes->add_flag("--json", changes_flags->json, "JSON instead of text");
  changes->callback([&selected, changes_flags] {
    selected = [changes_flags] { return print_history_changes(*changes_flags); };
  });

  auto show_flags = std::make_shared<history_view_flags>();
  show_flags->store = default_history_store;
  auto* show = history->add_subcommand(
      "show", "aorta history show TEST [QUANTITY] [--history STORE]: per commit the median and "
              "spread of the trials, change points marked");
  show->add_option("test", show_flags->test, "The test")->required();
  show->add_option("quantity", show_flags->quantity, "One quantity (default: all of the test's)");
  add_detector_options(*show, *show_flags);
  show->callback([&selected, show_flags] {
    selected = [show_flags] { return print_history_show(*show_flags); };
  });
}

}  // namespace aorta::cli
