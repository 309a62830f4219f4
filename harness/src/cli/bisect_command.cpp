// `aorta bisect`: the commit of a range that made a quantity worse, one cells run per step.
#include "bisect/bisect_run.hpp"
#include "cli/commands.hpp"
#include "cli/option_checks.hpp"
#include "reporting/console_reporter.hpp"

#include <iostream>
#include <memory>

namespace aorta::cli {

void add_bisect_command(CLI::App& app, action& selected,
                        const std::vector<std::string>& command_after_separator) {
  auto* bisect = app.add_subcommand(
      "bisect", "aorta bisect --good REV --bad REV --build CMD --recipe RECIPE --output DIR "
                "[OPTIONS] -- COMMAND [ARG...]: the first commit of good..bad that shows the "
                "regression good against bad shows, each step a cells run of two builds");
  auto request = std::make_shared<detail::bisect_request>();
  auto repository = std::make_shared<std::string>(".");
  auto recipe = std::make_shared<std::string>();
  auto output = std::make_shared<std::string>();
  bisect->add_option("--good", request->good, "A commit without the regression")->required();
  bisect->add_option("--bad", request->bad, "A later commit with it; --good must be its ancestor")
      ->required();
  bisect
      ->add_option("--build", request->build,
                   "Builds a commit: run as `sh -c CMD` in the commit's worktree, with "
                   "AORTA_BISECT_COMMIT set to its full id")
      ->required();
  bisect->add_option("--recipe", *recipe, "Recipe: collectors, checks, confound")->required();
  bisect
      ->add_option("--output,--output-dir", *output,
                   "Bisect directory, outside the repository: worktrees, builds, steps, "
                   "bisect.json; the same directory again resumes")
      ->required();
  bisect->add_option("--repo", *repository, "The repository's checkout (default: .)");
  bisect->add_option("--quantity", request->quantities,
                     "Watch only this confound row, e.g. 'time_ms(gemm)' (repeatable; default: "
                     "every row the gate kinds name)");
  bisect->add_option("--gate", request->gate,
                     "Watch only the quantity kinds this gate line names (time, count, cycles, "
                     "ir, ncu); default: all");
  bisect->add_option("--confound-threshold", request->threshold,
                     "Ratio candidate / good beyond which a step is SLOWER (default: the recipe's "
                     "confound.threshold, else 1.05)");
  bisect
      ->add_option("--rounds", request->rounds,
                   "Interleaved rounds of a step's first look (default: 1 under callgrind "
                   "only, else 6)")
      ->check(CLI::Range(1, 10'000).description(""));
  bisect
      ->add_option("--max-rounds", request->max_rounds,
                   "Round budget of a step still AMBIGUOUS, doubled each look (default: 4 x "
                   "--rounds)")
      ->check(CLI::Range(1, 10'000).description(""));
  bisect
      ->add_option("--seed", request->seed,
                   "Seed of the shuffled order (step n, look k use seed + 100 n + k)")
      ->check(seed_check());
  bisect->callback([&selected, request, repository, recipe, output, &command_after_separator] {
    selected = [request, repository, recipe, output, &command_after_separator] {
      request->repository = *repository;
      request->recipe = *recipe;
      request->output = *output;
      request->command = command_after_separator;
      reporting::console_reporter console(std::cout, std::cerr);
      return detail::run_bisect(*request, console);
    };
  });
}

}  // namespace aorta::cli
