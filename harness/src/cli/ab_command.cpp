// `aorta ab`: two builds of one payload, interleaved on one GPU and judged head against base.
#include "aorta/sweep.hpp"
#include "baseline/default_gate.hpp"
#include "cli/commands.hpp"
#include "cli/console_flags.hpp"
#include "cli/option_checks.hpp"

#include <iostream>
#include <memory>
#include <optional>

namespace aorta::cli {
namespace {

struct ab_flags {
  std::string recipe;
  std::string output;
  std::string base;
  std::string head;
  int trials = 0;
  std::optional<double> threshold;
  bool strict = false;
  std::string ambiguous;
  std::optional<std::uint64_t> seed;
  bool require_profiler = false;
  std::vector<std::string> checks;
  std::optional<double> timeout;
  std::vector<std::string> measures;
  std::string platforms;
  console_flags console;
};

}  // namespace

void add_ab_command(CLI::App& app, action& selected,
                    const std::vector<std::string>& command_after_separator) {
  auto* ab = app.add_subcommand(
      "ab", "aorta ab --recipe RECIPE --output DIR --base PROG --head PROG [--trials N] "
            "[--strict] [OPTIONS] -- [ARG...]: two builds as cells base and head, interleaved, head judged against base");
  auto flags = std::make_shared<ab_flags>();
  ab->add_option("--recipe", flags->recipe, "Recipe: collectors, checks, confound")->required();
  ab->add_option("--output,--output-dir", flags->output,
                 "Results directory; base/ and head/ are written below it")
      ->required();
  ab->add_option("--base", flags->base, "The baseline build's program")->required();
  ab->add_option("--head", flags->head, "The build under test's program")->required();
  ab->add_option("--trials", flags->trials, "Trials per cell, 1 to 1000000 (replaces the recipe's trials:)")
      ->check(CLI::Range(1, 1'000'000).description(""));
  ab->add_option("--confound-threshold", flags->threshold,
                 "Ratio head / base beyond which head is SLOWER (default: the recipe's "
                 "confound.threshold, else 1.05)");
  ab->add_flag("--strict", flags->strict,
               "A SLOWER, UNKNOWN or AMBIGUOUS verdict fails the run (AMBIGUOUS: as "
               "confound.ambiguous says)");
  ab->add_option("--ambiguous", flags->ambiguous,
                 "What a confound row still AMBIGUOUS at the end does under --strict: fail (exit "
                 "1), skip (exit 77) or pass, rows named (replaces confound.ambiguous; default: "
                 "fail)")
      ->check(ambiguous_check());
  ab->add_option("--seed", flags->seed, "Seed of the shuffled order per round")
      ->check(seed_check());
  ab->add_flag("--require-profiler", flags->require_profiler,
               "Fail instead of skipping when a profiler or the GPU is missing");
  ab->add_option("--check", flags->checks,
                 "A check expression judged on every trial, added to the recipe's check: list "
                 "(repeatable)");
  ab->add_option("--timeout", flags->timeout,
                 "Stop a trial's payload after this many SECONDS unless the recipe's timeout is "
                 "shorter (0.001 to 2592000, as the recipe's)");
  ab->add_option("--measure", flags->measures,
                 "A metric shown and measured besides the checks' own (repeatable; 'all')");
  ab->add_option("--platforms", flags->platforms,
                 "Platforms this lane covers (cpu, nvidia, amd, comma-separated, or all); a "
                 "recipe for none of them is skipped as not applicable");
  add_console_flags(*ab, flags->console);
  ab->callback([&selected, flags, &command_after_separator] {
    selected = [flags, &command_after_separator] {
      sweep_request request;
      request.recipe_path = flags->recipe;
      request.output_dir = flags->output;
      request.ab_base = flags->base;
      request.ab_head = flags->head;
      request.command = command_after_separator;
      if (flags->trials > 0) request.trials = flags->trials;
      request.confound_threshold = flags->threshold;
      request.strict = flags->strict;
      request.ambiguous = detail::parse_ambiguous_policy(flags->ambiguous);
      request.seed = flags->seed;
      request.require_profiler = flags->require_profiler;
      request.extra_checks = flags->checks;
      request.timeout_seconds = flags->timeout;
      request.measures = flags->measures;
      if (!flags->platforms.empty()) request.lane_platforms = parse_platforms(flags->platforms);
      flags->console.apply(request);
      return static_cast<int>(run_sweep_with_console(request, flags->console).code);
    };
  });
}

}  // namespace aorta::cli
