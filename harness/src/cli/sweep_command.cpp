#include "aorta/check.hpp"
#include "aorta/collector.hpp"
#include "aorta/recipe.hpp"
#include "aorta/sweep.hpp"
#include "baseline/default_gate.hpp"
#include "recipe/cell_plan.hpp"
#include "sweep/cell_sweep.hpp"
#include "sweep/checked_recipe.hpp"
#include "cli/commands.hpp"
#include "cli/history_baseline_option.hpp"
#include "cli/console_flags.hpp"
#include "cli/option_checks.hpp"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <cstdint>
#include <filesystem>
#include <iostream>
#include <optional>

namespace aorta::cli {
namespace {

struct sweep_flags {
  std::string recipe;
  std::string output;
  std::string collect;
  std::vector<std::string> checks;
  bool dry_run = false;
  bool require_profiler = false;
  std::string platforms;
  bool require_checks = false;
  std::optional<double> timeout;
  std::vector<std::string> measures;
  std::string baseline;
  history_baseline_flags history;
  std::string test_name;
  bool require_baseline = false;
  std::string gate;
  int trials = 0;
  std::string baseline_cell;
  std::optional<double> confound_threshold;
  bool strict = false;
  std::string ambiguous;
  std::optional<std::uint64_t> seed;
  std::vector<std::string> mitigations_files;
  console_flags console;
};

void add_cell_flags(CLI::App& run, sweep_flags& flags) {
  run.add_option("--baseline-cell", flags.baseline_cell,
                 "The cell every other cell is judged against (replaces confound.baseline_cell)")
      ->check(nonempty_check("a cell's name, e.g. none"));
  run.add_option("--confound-threshold", flags.confound_threshold,
                 "Ratio cell / baseline cell beyond which a cell is SLOWER, e.g. 1.05 "
                 "(replaces confound.threshold; default 1.15)");
  run.add_flag("--strict", flags.strict,
               "A SLOWER or UNKNOWN confound verdict fails the run (as confound.fail: true does "
               "for SLOWER), and an AMBIGUOUS one as confound.ambiguous says (default: fails)");
  run.add_option("--ambiguous", flags.ambiguous, ambiguous_help)->check(ambiguous_check());
  run.add_option("--seed", flags.seed,
                 "Seed of the cells' shuffled order per round (default: random, printed and "
                 "recorded in matrix.json)")
      ->check(seed_check());
  run.add_option("--mitigations-file", flags.mitigations_files,
                 "A JSON file of more mitigations, shaped as the recipe's mitigations: block "
                 "(repeatable)");
}

}  // namespace

void add_sweep_command(CLI::App& app, action& selected,
                       const std::vector<std::string>& command_after_separator) {
  auto* sweep = app.add_subcommand("sweep", "Run a recipe's command under its collectors");
  sweep->require_subcommand(1);
  auto* run = sweep->add_subcommand(
      "run", "aorta sweep run --recipe RECIPE --output DIR [--collectors LIST] [--check EXPR]... "
             "[--dry-run] [OPTIONS] -- CMD [ARG...]");
  auto flags = std::make_shared<sweep_flags>();
  run->add_option("--recipe", flags->recipe, "Recipe file (YAML or JSON)")->required();
  run->add_option("--output,--output-dir", flags->output,
                  "Results directory; trial_<n>/ is written below it")
      ->required();
  run->add_option("--collectors,--collect", flags->collect,
                  "Comma-separated collectors replacing the recipe's list (their option blocks "
                  "are kept); --collect is the older spelling");
  run->add_option("--check", flags->checks,
                  "A check expression judged on every trial, added to the recipe's check: list "
                  "(repeatable)");
  run->add_flag("--dry-run", flags->dry_run,
                "Validate and print the wrapped command and environment; run nothing");
  run->add_flag("--require-profiler", flags->require_profiler,
                "Fail instead of skipping when a profiler, GPU or the payload's environment is "
                "missing");
  run->add_option("--platforms", flags->platforms,
                  "Platforms this lane covers (cpu, nvidia, amd, comma-separated, or all); a "
                  "recipe for none of them is skipped as not applicable, even with "
                  "--require-profiler");
  run->add_flag("--require-checks", flags->require_checks,
                "A run without any check (recipe or --check) is a usage error (64)");
  run->add_option("--timeout", flags->timeout,
                  "Stop the payload after this many seconds unless the recipe's timeout is "
                  "shorter (0.001 to 2592000, as the recipe's)");
  run->add_option("--measure", flags->measures,
                  "A metric shown and measured besides the checks' own (repeatable; 'all')");
  run->add_option("--baseline", flags->baseline,
                  "Directory of baselines (<test>.json), or history[:BRANCH] for the branch's "
                  "trials in --history since its last change point: judge the trials against "
                  "this test's");
  add_history_baseline_options(*run, flags->history);
  run->add_option("--test-name", flags->test_name,
                  "The test's name in the baseline directory (default: the output directory's name)");
  run->add_flag("--require-baseline", flags->require_baseline,
                "Fail instead of skipping when the baseline is missing or from another machine");
  run->add_option("--gate", flags->gate,
                  "Default gate against the baseline, e.g. \"time +5%, count exact\" (replaces the "
                  "recipe's gate:)");
  run->add_option("--trials", flags->trials, "Trials, 1 to 1000000 (replaces the recipe's trials:)")
      ->check(CLI::Range(1, 1'000'000).description(""));
  add_cell_flags(*run, *flags);
  add_console_flags(*run, flags->console);
  run->callback([&selected, flags, &command_after_separator] {
    selected = [flags, &command_after_separator] {
      sweep_request request;
      request.recipe_path = flags->recipe;
      request.output_dir = flags->output;
      if (!flags->collect.empty()) request.collect_override = flags->collect;
      request.extra_checks = flags->checks;
      request.command = command_after_separator;
      request.dry_run = flags->dry_run;
      request.require_profiler = flags->require_profiler;
      if (!flags->platforms.empty()) request.lane_platforms = parse_platforms(flags->platforms);
      request.require_checks = flags->require_checks;
      request.timeout_seconds = flags->timeout;
      request.measures = flags->measures;
      request.history_baseline = resolve_history_baseline(flags->baseline, flags->history);
      if (!flags->baseline.empty() && !request.history_baseline)
        request.baseline_dir = flags->baseline;
      request.test_name = flags->test_name;
      request.require_baseline = flags->require_baseline;
      if (!flags->gate.empty()) request.gate = flags->gate;
      if (flags->trials > 0) request.trials = flags->trials;
      if (!flags->baseline_cell.empty()) request.baseline_cell = flags->baseline_cell;
      request.confound_threshold = flags->confound_threshold;
      request.strict = flags->strict;
      request.ambiguous = detail::parse_ambiguous_policy(flags->ambiguous);
      request.seed = flags->seed;
      for (const auto& file : flags->mitigations_files) request.mitigations_files.emplace_back(file);
      flags->console.apply(request);
      const auto outcome = run_sweep_with_console(request, flags->console);
      return static_cast<int>(outcome.code);
    };
  });
}

void add_validate_command(CLI::App& app, action& selected) {
  auto* validate = app.add_subcommand("validate", "Check a recipe's schema and every guard");
  auto recipe_path = std::make_shared<std::string>();
  auto collect = std::make_shared<std::string>();
  auto checks = std::make_shared<std::vector<std::string>>();
  auto gate = std::make_shared<std::string>();
  auto mitigations_files = std::make_shared<std::vector<std::string>>();
  validate->add_option("recipe", *recipe_path, "Recipe file")->required();
  validate->add_option("--mitigations-file", *mitigations_files,
                       "A JSON file of more mitigations (repeatable)");
  validate->add_option("--collectors,--collect", *collect,
                       "Comma-separated collectors replacing the recipe's list, as sweep run's; "
                       "--collect is the older spelling");
  validate->add_option("--check", *checks,
                       "A check expression to parse as `sweep run --check` would (repeatable)");
  validate->add_option("--gate", *gate, "A gate spec to parse as `sweep run --gate` would");
  validate->callback([&selected, recipe_path, collect, checks, gate, mitigations_files] {
    selected = [recipe_path, collect, checks, gate, mitigations_files] {
      sweep_request as_run;
      as_run.recipe_path = *recipe_path;
      as_run.mitigations_files.assign(mitigations_files->begin(), mitigations_files->end());
      if (!collect->empty()) as_run.collect_override = *collect;
      as_run.extra_checks = *checks;
      if (!gate->empty()) as_run.gate = *gate;
      const auto checked = detail::check_recipe(as_run);
      const recipe& spec = checked.spec;
      const auto& parsed = checked.checks;
      if (detail::has_cells(spec)) {
        // What `sweep run` would refuse before its first trial is refused here too, so CMake's
        // configure-time validation stops a cells test with a GATE or a baseline CHECK.
        detail::refuse_gate_over_cells(as_run, spec, parsed);
      }
      for (const auto& key : spec.ignored_keys) {
        fmt::print(std::cout,
                   "aorta: note: {}: key '{}' of the original aorta schema is accepted and "
                   "ignored\n",
                   spec.path.string(), key);
      }
      std::string names;
      for (const auto& request : spec.collect) {
        names += (names.empty() ? "" : ", ") + request.name;
      }
      fmt::print(std::cout, "aorta: {}: valid (collectors [{}], {} trial(s), {} check(s))\n",
                 spec.path.string(), names.empty() ? "none" : names, spec.trials, parsed.size());
      if (detail::has_cells(spec)) {
        for (const auto& cell : detail::plan_cells(spec)) {
          fmt::print(std::cout, "aorta: cell {}: {} trial(s)\n", cell.name, cell.trials);
        }
      }
      return 0;
    };
  });
}

}  // namespace aorta::cli
