#include "bisect/bisect_run.hpp"

#include "aorta/error.hpp"
#include "aorta/launch_plan.hpp"
#include "aorta/recipe.hpp"
#include "bisect/bisect_report.hpp"
#include "bisect/bisect_step.hpp"
#include "bisect/git_repository.hpp"
#include "process/process.hpp"
#include "process/signal_forwarding.hpp"
#include "recipe/cell_plan.hpp"
#include "sweep/output_lock.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <memory>
#include <random>
#include <tuple>

namespace aorta::detail {
namespace fs = std::filesystem;
namespace {

// Exact counts (callgrind's Ir) need one round; a timed row needs the signed-rank test's: with 6
// paired rounds all moving one way its one-sided p is 1/64, below alpha 0.05.
constexpr int exact_rounds = 1;
constexpr int timed_rounds = 6;
constexpr int max_round_multiple = 4;

// Whether every collector of the recipe is exact; refuses, before anything is built, what a step's
// cells run would refuse after the ends were built.
bool recipe_is_exact(const fs::path& recipe_path) {
  const recipe spec = load_recipe(recipe_path);
  if (has_cells(spec)) {
    throw usage_error(fmt::format("bisect: {} has cells (mitigation_axis / diagnostic_axis); each "
                                  "step makes its own two, base and head. Fix: bisect with a "
                                  "recipe without cells",
                                  recipe_path.string()));
  }
  if (spec.gate) {
    throw usage_error(fmt::format("bisect: {} has a gate:, but a step is judged by the confound "
                                  "verdicts of its two builds, not against a baseline. Fix: drop "
                                  "gate: from the recipe; --gate chooses the quantity kinds to "
                                  "watch",
                                  recipe_path.string()));
  }
  return !spec.collect.empty() &&
         std::all_of(spec.collect.begin(), spec.collect.end(),
                     [](const collector_request& c) { return c.name == "callgrind"; });
}

bool inside(const fs::path& path, const fs::path& parent) {
  const auto relative = path.lexically_relative(parent);
  return !relative.empty() && *relative.begin() != "..";
}

struct bisect_context {
  bisect_request request;
  bisect_record record;
  fs::path dir;  // absolute
  std::unique_ptr<git_repository> repo;
  reporting::reporter* report = nullptr;
};

void save(const bisect_context& context) {
  write_bisect_record(context.dir / "bisect.json", context.record);
  write_bisect_pages(context.dir, context.record);
}

fs::path worktree_of(const bisect_context& context, const std::string& commit) {
  return context.dir / "worktrees" / commit;
}

// The commit's worktree, built once: a build recorded in bisect.json is never run again.
bool ensure_built(bisect_context& context, const std::string& commit) {
  const fs::path worktree = worktree_of(context, commit);
  context.repo->add_worktree(worktree, commit);
  if (const auto* built = find_build(context.record, commit)) return built->succeeded;
  const std::string log = fmt::format("builds/{}", commit);
  fs::create_directories(context.dir / "builds");
  reporting::say(*context.report, fmt::format("bisect: building {} ({})", commit.substr(0, 12),
                                              context.repo->subject(commit)));
  context.report->flush();
  process_spec build;
  build.argv = {"sh", "-c", context.record.settings.build};
  build.environment = current_environment();
  build.environment["AORTA_BISECT_COMMIT"] = commit;
  build.environment["AORTA_BISECT_WORKTREE"] = worktree.string();
  // ccache rewrites paths below its base directory to relative ones, so an unchanged file of two
  // commits' worktrees hashes the same and the second build finds the first's objects.
  build.environment.try_emplace("CCACHE_BASEDIR", (context.dir / "worktrees").string());
  build.environment.try_emplace("CCACHE_NOHASHDIR", "1");
  build.working_directory = worktree;
  build.stdout_log = context.dir / (log + ".stdout.log");
  build.stderr_log = context.dir / (log + ".stderr.log");
  build.echo = false;
  const process_result result = run_process(build);
  if (result.interrupted_by) {
    throw interrupted_error(*result.interrupted_by,
                            fmt::format("bisect: interrupted while building {}", commit));
  }
  context.record.built.push_back({commit, result.succeeded(), result.wall_seconds, log});
  if (!result.succeeded()) {
    reporting::say(*context.report,
                   fmt::format("bisect: the build of {} failed ({}); its output: {}",
                               commit.substr(0, 12), result.describe(),
                               (context.dir / (log + ".stderr.log")).string()));
  }
  save(context);
  return result.succeeded();
}

void stop_if_interrupted(signal_forwarding& interrupts) {
  if (const int signal = interrupts.take_first_pending(); signal != 0) {
    throw interrupted_error(signal, "bisect: interrupted between steps");
  }
}

// The step of `commit` against `base` (good, or the culprit's parent): recorded, or built and
// measured now.
const bisect_step& step_of(bisect_context& context, const std::string& commit,
                           const std::string& base, signal_forwarding& interrupts) {
  if (const auto* done = find_step(context.record, commit, base)) return *done;
  stop_if_interrupted(interrupts);
  bisect_step step;
  const bool ends = commit == context.record.settings.bad && context.record.steps.empty();
  step.number = static_cast<int>(context.record.steps.size());
  step.commit = commit;
  step.base = base;
  step.subject = context.repo->subject(commit);
  if (!ensure_built(context, base) || !ensure_built(context, commit)) {
    step.verdict = "UNBUILDABLE";
    step.evidence = "a build failed; see builds/";
  } else {
    reporting::say(*context.report,
                   fmt::format("bisect: step {}: {} against {} {} ...", step.number,
                               commit.substr(0, 12),
                               base == context.record.settings.good ? "good" : "its parent",
                               base.substr(0, 12)));
    context.report->flush();
    const step_request request{step.number,
                               commit,
                               worktree_of(context, base),
                               worktree_of(context, commit),
                               context.dir,
                               ends ? nullptr : &context.record.tracked};
    const std::string subject = step.subject;
    step = run_bisect_step(context.record.settings, request);
    step.subject = subject;
    step.base = base;
  }
  reporting::say(*context.report,
                 fmt::format("bisect: step {}: {} {} (ratio {}, {} round(s)) {}", step.number,
                             commit.substr(0, 12), step.verdict,
                             step.ratio ? fmt::format("{:.4f}", *step.ratio) : std::string("-"),
                             step.rounds, step.evidence));
  context.record.steps.push_back(std::move(step));
  save(context);
  return context.record.steps.back();
}

std::vector<watched_row> moved_rows(const bisect_step& step) {
  std::vector<watched_row> moved;
  for (const auto& row : step.rows) {
    if (row.verdict != "SAME") moved.push_back(row);
  }
  // The largest move first: an inclusive row (main) moves with every function below it.
  std::stable_sort(moved.begin(), moved.end(), [](const watched_row& a, const watched_row& b) {
    return a.ratio.value_or(0.0) > b.ratio.value_or(0.0);
  });
  return moved;
}

int finish_bisect(bisect_context& context, const std::string& status, std::string message) {
  context.record.status = status;
  context.record.message = std::move(message);
  save(context);
  report_bisect_outcome(context.record, *context.report);
  return status == "culprit" ? 0 : 1;
}

int search(bisect_context& context, signal_forwarding& interrupts) {
  bisect_record& record = context.record;
  const auto& candidates = record.candidates;
  const std::string& good = record.settings.good;
  const bisect_step& ends = step_of(context, record.settings.bad, good, interrupts);
  if (ends.verdict != "BAD") {
    return finish_bisect(
        context, "not reproduced",
        fmt::format("the range does not reproduce the regression: good against bad is "
                    "{} on the watched rows ({}); nothing blamed",
                    ends.verdict, ends.evidence.empty() ? "no evidence" : ends.evidence));
  }
  if (record.tracked.empty()) {
    for (const auto& row : ends.rows) {
      if (row.verdict == "SLOWER") record.tracked.push_back(row.quantity);
    }
    save(context);
  }
  std::ptrdiff_t last_good = -1;
  auto first_bad = static_cast<std::ptrdiff_t>(candidates.size()) - 1;
  while (first_bad - last_good > 1) {
    const std::ptrdiff_t probe = last_good + (first_bad - last_good) / 2;
    const bisect_step& step =
        step_of(context, candidates[static_cast<std::size_t>(probe)], good, interrupts);
    if (step.verdict == "BAD") {
      first_bad = probe;
    } else if (step.verdict == "GOOD") {
      last_good = probe;
    } else {
      record.unseparated.assign(candidates.begin() + last_good + 1,
                                candidates.begin() + first_bad + 1);
      return finish_bisect(
          context, "not separated",
          fmt::format("step {} at {} is {} after {} round(s); the culprit is one of the "
                      "{} commit(s) below, which it could not separate",
                      step.number, step.commit, step.verdict, step.rounds,
                      record.unseparated.size()));
    }
  }
  const auto culprit_index = static_cast<std::size_t>(first_bad);
  const std::string& culprit = candidates[culprit_index];
  const std::string parent = culprit_index == 0 ? good : candidates[culprit_index - 1];
  if (parent != good) {
    // Every step compared a commit with good; the culprit is named only if it is also slower
    // than its own parent, so one noisy step cannot move the blame onto a clean commit.
    const bisect_step& confirmed = step_of(context, culprit, parent, interrupts);
    if (confirmed.verdict != "BAD") {
      return finish_bisect(
          context, "not confirmed",
          fmt::format("the search ended at {}, but against its parent {} it is {} "
                      "after {} round(s): the steps disagree, so no culprit is named. "
                      "Fix: bisect again into another --output with more --rounds",
                      culprit, parent, confirmed.verdict, confirmed.rounds));
    }
  }
  record.culprit = culprit;
  record.culprit_subject = context.repo->subject(culprit);
  record.culprit_rows = moved_rows(*find_step(record, culprit, good));
  record.culprit_summary = find_step(record, culprit, good)->summary;
  return finish_bisect(
      context, "culprit",
      fmt::format("{} step(s), {} build(s)", record.steps.size(), record.built.size()));
}

bisect_settings settings_of(const bisect_request& request, const git_repository& repo) {
  bisect_settings settings;
  settings.repository = repo.top_level().string();
  settings.good = repo.commit_of(request.good, "--good");
  settings.bad = repo.commit_of(request.bad, "--bad");
  settings.recipe = fs::absolute(request.recipe).string();
  settings.build = request.build;
  settings.command = request.command;
  settings.quantities = request.quantities;
  settings.gate = request.gate;
  settings.threshold = request.threshold;
  const bool exact = recipe_is_exact(request.recipe);
  settings.rounds = request.rounds.value_or(exact ? exact_rounds : timed_rounds);
  settings.max_rounds = request.max_rounds.value_or(settings.rounds * max_round_multiple);
  if (settings.max_rounds < settings.rounds) {
    throw usage_error(fmt::format("bisect: --max-rounds {} is below --rounds {}. Fix: give a "
                                  "budget of at least the first look's rounds",
                                  settings.max_rounds, settings.rounds));
  }
  if (request.seed) {
    settings.seed = *request.seed;
  } else {
    std::random_device entropy;
    settings.seed = (static_cast<std::uint64_t>(entropy()) << 32) ^ entropy();
  }
  return settings;
}

void refuse_unusable(const bisect_request& request) {
  if (request.command.empty()) {
    throw usage_error("bisect: no COMMAND after '--'. Fix: give the payload to measure, as run "
                      "from a commit's worktree, e.g. -- build/bench");
  }
  if (request.build.empty()) {
    throw usage_error("bisect: --build is empty. Fix: give the command that builds a commit in "
                      "its worktree, e.g. --build 'cmake -B build && cmake --build build'");
  }
}

std::vector<std::string> checked_range(const git_repository& repo,
                                       const bisect_settings& settings) {
  if (settings.good == settings.bad) {
    throw usage_error(fmt::format("bisect: --good and --bad are the same commit {}. Fix: give a "
                                  "--good older than --bad",
                                  settings.good));
  }
  if (!repo.is_ancestor(settings.good, settings.bad)) {
    throw usage_error(fmt::format(
        "bisect: --good {} is not an ancestor of --bad {}, so no range leads from one to the "
        "other. Fix: give as --good a commit that --bad descends from (git merge-base {} {} is "
        "one), or swap them if they were given the wrong way round",
        settings.good, settings.bad, settings.good, settings.bad));
  }
  auto candidates = repo.first_parent_range(settings.good, settings.bad);
  if (candidates.empty() || repo.first_parent(candidates.front()) != settings.good) {
    throw usage_error(fmt::format(
        "bisect: --good {} is not on the first-parent line of --bad {} (a merge brought it in), "
        "and bisect walks that line only. Fix: give as --good the commit of that line the merge "
        "started from (git merge-base --fork-point or the merge's first parent)",
        settings.good, settings.bad));
  }
  return candidates;
}

fs::path checked_output(const bisect_request& request, const git_repository& repo) {
  if (request.output.empty()) {
    throw usage_error("bisect: --output is empty. Fix: name a directory outside the repository");
  }
  const fs::path dir = fs::weakly_canonical(fs::absolute(request.output));
  const fs::path top = fs::weakly_canonical(repo.top_level());
  if (dir == top || inside(dir, top)) {
    throw usage_error(fmt::format(
        "bisect: --output {} is inside the work tree {}; the worktrees and builds would show up "
        "in its `git status`. Fix: choose a directory outside it, e.g. {}",
        dir.string(), top.string(), (top.parent_path() / "bisect-out").string()));
  }
  return dir;
}

// A directory with a bisect.json continues that bisect, if it was asked the same.
void resume_or_start(bisect_context& context, const bisect_request& request,
                     std::vector<std::string> candidates) {
  const fs::path file = context.dir / "bisect.json";
  bisect_settings& settings = context.record.settings;
  if (!fs::exists(file)) {
    context.record.candidates = std::move(candidates);
    return;
  }
  bisect_record earlier = read_bisect_record(file);
  bisect_settings asked = settings;
  if (!request.seed) asked.seed = earlier.settings.seed;
  const auto key = [](const bisect_settings& s) {
    return std::tie(s.repository, s.good, s.bad, s.recipe, s.build, s.command, s.quantities, s.gate,
                    s.threshold, s.rounds, s.max_rounds, s.seed);
  };
  if (key(asked) != key(earlier.settings)) {
    throw usage_error(fmt::format(
        "bisect: {} holds a bisect asked otherwise (good {}, bad {}, build, recipe, command, "
        "rounds and seed must all be the same to resume it). Fix: run it with the arguments it "
        "records under 'settings', or choose another --output",
        file.string(), earlier.settings.good.substr(0, 12), earlier.settings.bad.substr(0, 12)));
  }
  reporting::say(*context.report,
                 fmt::format("bisect: resuming {}: {} step(s) and {} build(s) recorded",
                             file.string(), earlier.steps.size(), earlier.built.size()));
  context.record = std::move(earlier);
  context.record.status = "in progress";
  context.record.unseparated.clear();
}

}  // namespace

int run_bisect(const bisect_request& request, reporting::reporter& report) {
  refuse_unusable(request);
  bisect_context context;
  context.request = request;
  context.report = &report;
  context.repo = std::make_unique<git_repository>(request.repository);
  context.record.settings = settings_of(request, *context.repo);
  auto candidates = checked_range(*context.repo, context.record.settings);
  context.dir = checked_output(request, *context.repo);
  (void)make_row_filter(context.record.settings);
  const output_lock lock(context.dir);
  signal_forwarding interrupts;
  resume_or_start(context, request, std::move(candidates));
  const bisect_settings& settings = context.record.settings;
  reporting::say(report, fmt::format("bisect: {} commit(s) after good {} up to bad {}; seed {}, "
                                     "{} round(s) a look, at most {}",
                                     context.record.candidates.size(), settings.good.substr(0, 12),
                                     settings.bad.substr(0, 12), settings.seed, settings.rounds,
                                     settings.max_rounds));
  try {
    return search(context, interrupts);
  } catch (const interrupted_error& stopped) {
    context.record.status = "interrupted";
    context.record.message = fmt::format("{} ({}); run the same command again to resume",
                                         stopped.what(), signal_label(stopped.signal_number()));
    save(context);
    reporting::say(report, context.record.message);
    return 128 + stopped.signal_number();
  }
}

}  // namespace aorta::detail
