// `aorta sweep run`: recipe → collectors → launch → capture → metrics → checks → result.json,
// once per trial. The CLI only parses flags and maps the outcome to an exit code.
#pragma once

#include "aorta/check.hpp"
#include "aorta/error.hpp"
#include "aorta/platform.hpp"
#include "aorta/recipe.hpp"
#include "aorta/trial_record.hpp"

#include <cstdint>
#include <filesystem>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

namespace aorta {

// How much of a run the console shows (docs/cli.md, "Output"). `verbose`: every trial's lines,
// the payload's output and measurements as they happen, the verdict last. `normal`: one progress
// line per trial, then the verdict, then what it rests on (the failed trials' detail, the last
// trial's measurements, the gate or confound table). `quiet`: as normal without progress lines
// and without the last passing trial's detail.
enum class console_detail { quiet, normal, verbose };

// `--baseline history[:BRANCH]` with `--history STORE` (docs/history.md, "Baselines from
// history"): the gate's baseline is read from the history store instead of a baseline directory.
// How many of a branch's newest commits since its last change point a history baseline takes
// unless told (--history-commits, AORTA_HISTORY_BASELINE_COMMITS): enough trials for the gate's
// tests (3 a commit give 60), few enough that a slow drift is not averaged into it for long.
inline constexpr int default_history_baseline_commits = 20;

struct history_baseline_source {
  std::string store;
  std::string branch;
  int max_commits = default_history_baseline_commits;
  std::string commit;    // the commit under test, for the bisect hint; "" when git cannot tell
};

struct sweep_request {
  std::filesystem::path recipe_path;
  std::filesystem::path output_dir;
  std::optional<std::string> collect_override;  // `--collect a,b`
  std::vector<std::string> extra_checks;        // `--check EXPR`, added to the recipe's
  std::vector<std::string> command;             // everything after `--`
  bool dry_run = false;
  // An environment skip (no profiler, no GPU, payload's environment exit code) becomes a failure:
  // a GPU CI lane must never go green by skipping everything.
  bool require_profiler = false;
  // The platforms this lane covers (`--platforms`); a recipe whose collectors capture on none of
  // them is skipped as not applicable, even with require_profiler. nullopt: every platform.
  std::optional<platform_set> lane_platforms;
  // No check at all (recipe nor --check) is a usage error instead of a note: a test that judges
  // only the exit status should be a decision, not a typo's result.
  bool require_checks = false;
  // Stops the payload after this many seconds when the recipe's `timeout` is absent or longer;
  // CMake passes a little less than the test's CTest TIMEOUT, so aorta records the timeout itself.
  std::optional<double> timeout_seconds;
  std::vector<std::string> measures;  // `--measure NAME`: metrics shown besides the checks' own
  // The regression gate (docs/regression-gate.md): baselines in `baseline_dir/<test>.json`, the
  // test named `test_name` (default: the output directory's name); a missing or foreign baseline
  // is a skip unless `require_baseline`. `gate` replaces the recipe's `gate:`; `trials` its count.
  std::optional<std::filesystem::path> baseline_dir;
  std::optional<history_baseline_source> history_baseline;  // replaces baseline_dir when set
  std::string test_name;
  bool require_baseline = false;
  std::optional<std::string> gate;
  std::optional<int> trials;
  // Cells (docs/recipes.md, "Cells"): replace the recipe's confound baseline_cell and threshold;
  // `strict` fails the run on a SLOWER or UNKNOWN confound row (as confound.fail: true does for
  // SLOWER); `seed` fixes the interleaved order (default: a random one, printed and recorded).
  std::optional<std::string> baseline_cell;
  std::optional<double> confound_threshold;
  bool strict = false;
  // `--ambiguous`: what a gate or confound row still AMBIGUOUS at the end does; replaces the
  // gate line's `ambiguous` item and the recipe's confound.ambiguous.
  std::optional<ambiguous_policy> ambiguous;
  std::optional<std::uint64_t> seed;
  // `--mitigations-file`: JSON files of more mitigations, as the recipe's `mitigations:` block.
  std::vector<std::filesystem::path> mitigations_files;
  // `aorta ab --base P --head Q`: the recipe becomes two cells running P and Q, each followed by
  // `command` (the arguments after `--`), judged head against base.
  std::optional<std::string> ab_base;
  std::optional<std::string> ab_head;
  // Where each of them starts (`aorta bisect`: the two commits' worktrees); empty: aorta's own.
  std::filesystem::path ab_base_directory;
  std::filesystem::path ab_head_directory;
  // The library default keeps everything, as a test reading the stream expects; the CLI passes
  // `normal` unless --verbose or --quiet.
  console_detail detail = console_detail::verbose;
  // `<CTestMeasurement>` tags, for CTest and CDash (aorta_add_profiled_test passes
  // --ctest-measurements); noise on a terminal.
  bool ctest_measurements = true;
};

struct sweep_outcome {
  exit_code code = exit_code::ok;
  std::vector<trial_record> trials;
  // What judged the run after its trials, for the verdict line ("confound: 0 SLOWER ..."); empty
  // when the trials alone decided it.
  std::string judgement;
};

// The recipe's `check:` expressions and the `--check` ones, parsed. A bad recipe check is a
// recipe_error at its file:line; a bad `--check` a usage_error. Both exit 64.
[[nodiscard]] std::vector<check_expression> parse_checks(const recipe& spec,
                                                         const std::vector<std::string>& extra);

// Progress and summaries go to `out`, diagnostics to `err`. Throws recipe_error/usage_error (64)
// before anything runs; everything that happens after the launch is recorded in the outcome.
[[nodiscard]] sweep_outcome run_sweep(const sweep_request& request, std::ostream& out,
                                      std::ostream& err);

}  // namespace aorta
