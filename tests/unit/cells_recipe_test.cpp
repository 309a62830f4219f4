// The recipe's cells: mitigations, diagnostics, confound, the axes, the naming rule and every
// refusal (file:line, the names, the fix), including hostile names and files.
#include "aorta/recipe.hpp"
#include "recipe/cell_plan.hpp"
#include "sweep/trial_recipes.hpp"

#include "option_test_support.hpp"

#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <optional>

namespace {

using aorta::load_recipe_from_string;
using aorta::recipe_error;
using aorta::detail::plan_cells;
using aorta::testing_support::thrown;
using ::testing::HasSubstr;
using ::testing::StartsWith;
using strings = std::vector<std::string>;

aorta::recipe load(const std::string& text) {
  return load_recipe_from_string(text, "r.yaml");
}

std::string failure(const std::string& text) {
  const auto e = thrown<recipe_error>([&] { (void)load(text); });
  return e ? e->what() : std::string{};
}

strings names(const aorta::recipe& spec) {
  strings out;
  for (const auto& cell : plan_cells(spec)) out.push_back(cell.name);
  return out;
}

const std::string two_mitigations = "schema_version: 1\n"
                                    "mitigations:\n"
                                    "  fast: {env: {MODE: fast, KEEP: 1}, args: [--fast]}\n"
                                    "  big: {env: {SIZE: '4096'}, unset: [DEBUG], trials: 7}\n"
                                    "  slow: {env: {MODE: slow}}\n";

TEST(CellsRecipe, AxesMakeTheProductNamedByTheRule) {
  const auto spec = load(two_mitigations + "mitigation_axis: [none, fast, fast+big]\n");
  EXPECT_EQ(names(spec), (strings{"none", "fast", "fast+big"}));
  const auto cells = plan_cells(spec);
  EXPECT_EQ(cells[2].mitigations, (strings{"fast", "big"}));
  ASSERT_TRUE(cells[2].changes);
  EXPECT_EQ(cells[2].changes->env_set.at("MODE"), "fast");
  EXPECT_EQ(cells[2].changes->env_set.at("SIZE"), "4096");
  EXPECT_EQ(cells[2].changes->env_unset, strings{"DEBUG"});
  EXPECT_EQ(cells[2].changes->extra_args, strings{"--fast"});
  EXPECT_EQ(cells[2].trials, 7);
  EXPECT_EQ(cells[0].trials, 1);
  EXPECT_TRUE(aorta::detail::has_cells(spec));
  EXPECT_FALSE(aorta::detail::has_cells(load("schema_version: 1\n")));

  const auto with_diagnostics =
      load(two_mitigations + "mitigation_axis: [none, slow]\ndiagnostic_axis: [none, cg]\n"
                             "diagnostics: {cg: {callgrind: {cache_sim: true}}}\n");
  EXPECT_EQ(names(with_diagnostics), (strings{"none.none", "none.cg", "slow.none", "slow.cg"}));
  const auto cells2 = plan_cells(with_diagnostics);
  EXPECT_FALSE(cells2[0].collect);
  ASSERT_TRUE(cells2[1].collect);
  EXPECT_EQ(cells2[1].collect->front().name, "callgrind");
}

TEST(CellsRecipe, ACellMayReplaceTheCommand) {
  const auto spec = load("schema_version: 1\nmitigation_axis: [base, head]\n"
                         "mitigations:\n  base: {command: [build-main/bench, -n, '3']}\n"
                         "  head: {command: [build-pr/bench, -n, '3']}\n");
  const auto cells = plan_cells(spec);
  ASSERT_TRUE(cells[1].changes && cells[1].changes->command);
  EXPECT_EQ(*cells[1].changes->command, (strings{"build-pr/bench", "-n", "3"}));
  EXPECT_THAT(failure("schema_version: 1\nmitigation_axis: [a]\nmitigations: {a: {command: []}}\n"),
              StartsWith("r.yaml:3:28: recipe.mitigations.a.command: is empty, so the cell would "
                         "have no command to run."));
}

TEST(CellsRecipe, StackedMitigationsThatDisagreeAreRefusedNamingBoth) {
  EXPECT_THAT(failure(two_mitigations + "mitigation_axis: [none, fast+slow]\n"),
              StartsWith("r.yaml:6:25: recipe.mitigation_axis: 'fast+slow' stacks mitigations "
                         "that disagree on MODE: 'fast' (at r.yaml:3:3) and 'slow' (at "
                         "r.yaml:5:3) both set it, to different values ('fast' and 'slow')."));
  EXPECT_THAT(failure("schema_version: 1\nmitigation_axis: [a+b]\n"
                      "mitigations: {a: {env: {X: 1}}, b: {unset: [X]}}\n"),
              HasSubstr("disagree on X: 'a' (at r.yaml:3:15) and 'b' (at r.yaml:3:33) one sets "
                        "it and the other removes it"));
  EXPECT_THAT(failure("schema_version: 1\nmitigation_axis: [a+b]\n"
                      "mitigations: {a: {command: [x]}, b: {command: [y]}}\n"),
              HasSubstr("disagree on the command"));
  EXPECT_THAT(failure(two_mitigations + "mitigation_axis: [fast+fast]\n"),
              HasSubstr("'fast+fast' stacks 'fast' twice"));
  // Agreeing on a value is no conflict.
  EXPECT_EQ(names(load("schema_version: 1\nmitigation_axis: [a+b]\n"
                       "mitigations: {a: {env: {X: 1}}, b: {env: {X: 1, Y: 2}}}\n")),
            strings{"a+b"});
}

TEST(CellsRecipe, UndefinedAndDuplicateNamesAreRefused) {
  EXPECT_THAT(failure("schema_version: 1\nmitigation_axis: [none, fsat]\n"
                      "mitigations: {fast: {env: {A: b}}}\n"),
              StartsWith("r.yaml:2:25: recipe.mitigation_axis: 'fsat' is not defined. Did you "
                         "mean 'fast'? Defined: none, fast. Fix: define it under mitigations:"));
  EXPECT_THAT(failure("schema_version: 1\ndiagnostic_axis: [trace]\n"),
              StartsWith("r.yaml:2:19: recipe.diagnostic_axis: 'trace' is not defined."));
  EXPECT_THAT(failure("schema_version: 1\nmitigation_axis: [none, none]\n"),
              StartsWith("r.yaml:2:25: recipe.mitigation_axis: 'none' appears twice"));
  EXPECT_THAT(failure("schema_version: 1\nmitigations:\n  a: {}\n  a: {}\n"),
              HasSubstr("key 'a' appears twice (first on line 3)"));
  EXPECT_THAT(failure("schema_version: 1\nmitigations: {none: {env: {A: b}}}\n"),
              HasSubstr("'none' is reserved"));
}

TEST(CellsRecipe, HostileNamesCannotLeaveTheOutputDirectory) {
  for (const char* name : {"'..'", "'../x'", "'a/b'", "'.hidden'", "'a.b'", "'-x'", "'a+b'",
                           "\"a\\0b\"", "''"}) {
    const std::string text =
        fmt::format("schema_version: 1\nmitigations: {{{}: {{env: {{A: b}}}}}}\n", name);
    EXPECT_THAT(failure(text), HasSubstr("is not a valid name")) << name;
  }
  EXPECT_THAT(failure("schema_version: 1\nmitigations: {" + std::string(101, 'a') + ": {}}\n"),
              HasSubstr("is not a valid name: use 1 to 100"));
  EXPECT_THAT(failure("schema_version: 1\nmitigation_axis: [matrix]\ndiagnostic_axis: [json]\n"
                      "mitigations: {matrix: {}}\ndiagnostics: {json: []}\n"),
              HasSubstr("the cell 'matrix.json' would take the name of a file aorta writes"));
  // result.json is the refusal record a run that never started writes beside the cells.
  EXPECT_THAT(failure("schema_version: 1\nmitigation_axis: [result]\ndiagnostic_axis: [json]\n"
                      "mitigations: {result: {}}\ndiagnostics: {json: []}\n"),
              HasSubstr("the cell 'result.json' would take the name of a file aorta writes"));
  EXPECT_THAT(failure("schema_version: 1\nmitigations: {a: {env: {'X=1': b}}}\n"),
              HasSubstr("'X=1' is not an environment variable name"));
  EXPECT_THAT(failure("schema_version: 1\nmitigations: {a: {env: {X: [1]}}}\n"),
              HasSubstr("expected a value, got a list"));
  EXPECT_THAT(failure("schema_version: 1\nmitigations: {a: {trials: 0}}\n"),
              HasSubstr("recipe.mitigations.a.trials: expected an integer from 1 to 1000000"));
  EXPECT_THAT(failure("schema_version: 1\nmitigations: {a: {colour: 1}}\n"),
              HasSubstr("unknown key 'colour'"));
}

TEST(CellsRecipe, ConfoundIsCheckedAtLoad) {
  const std::string base = two_mitigations + "mitigation_axis: [none, fast]\n";
  const auto spec = load(base + "confound: {threshold: 1.05, baseline_cell: none, fail: true}\n");
  ASSERT_TRUE(spec.confound);
  EXPECT_DOUBLE_EQ(spec.confound->threshold, 1.05);
  EXPECT_TRUE(spec.confound->fail);
  for (const char* bad : {"0", "-1", "0.9", ".nan", ".inf", "'1.1'"}) {
    EXPECT_THAT(failure(base + "confound: {threshold: " + bad + "}\n"),
                HasSubstr("recipe.confound.threshold:"))
        << bad;
  }
  EXPECT_THAT(failure(base + "confound: {baseline_cell: nine}\n"),
              StartsWith("r.yaml:7:1: recipe.confound.baseline_cell: 'nine' is not a cell. Did "
                         "you mean 'none'? Cells: none, fast."));
  EXPECT_THAT(failure("schema_version: 1\nconfound: {threshold: 1.1}\n"),
              StartsWith("r.yaml:2:1: recipe.confound: judges cells against a baseline cell, but "
                         "the recipe has 1 cell(s)."));
  EXPECT_THAT(failure(base + "confound: {thresold: 1.1}\n"),
              HasSubstr("unknown key 'thresold'. Did you mean 'threshold'?"));
  // What a row still AMBIGUOUS at the end does (issue 39, item 6): fail unless said otherwise.
  EXPECT_EQ(spec.confound->ambiguous, aorta::ambiguous_policy::fail);
  EXPECT_EQ(load(base + "confound: {fail: true, ambiguous: skip}\n").confound->ambiguous,
            aorta::ambiguous_policy::skip);
  EXPECT_EQ(load(base + "confound: {ambiguous: pass}\n").confound->ambiguous,
            aorta::ambiguous_policy::pass);
  EXPECT_THAT(failure(base + "confound: {ambiguous: maybe}\n"),
              HasSubstr("recipe.confound.ambiguous: 'maybe' is not a policy; allowed: fail, "
                        "skip, pass"));
}

TEST(CellsRecipe, MitigationsFileAddsDefinitionsAndRefusesRepeats) {
  const auto dir = std::filesystem::temp_directory_path() / "aorta-cells-recipe-test";
  std::filesystem::create_directories(dir);
  {
    std::ofstream(dir / "r.yaml") << "schema_version: 1\nmitigation_axis: [none, fast, lean]\n"
                                     "mitigations: {fast: {env: {MODE: fast}}}\n";
    std::ofstream(dir / "m.json") << "{\"lean\": {\"env\": {\"MODE\": \"lean\"}}}\n";
    std::ofstream(dir / "dup.json") << "{\"fast\": {}}\n";
    std::ofstream(dir / "comma.json") << "{\"lean\": {},}\n";
  }
  const auto spec = aorta::load_recipe(dir / "r.yaml", {dir / "m.json"});
  EXPECT_EQ(names(spec), (strings{"none", "fast", "lean"}));
  const auto missing = thrown<recipe_error>([&] { (void)aorta::load_recipe(dir / "r.yaml"); });
  ASSERT_TRUE(missing);
  EXPECT_THAT(missing->what(), HasSubstr("'lean' is not defined"));
  const auto dup = thrown<recipe_error>(
      [&] { (void)aorta::load_recipe(dir / "r.yaml", {dir / "m.json", dir / "dup.json"}); });
  ASSERT_TRUE(dup);
  EXPECT_THAT(dup->what(), HasSubstr("defines 'fast' again (first at"));
  const auto comma = thrown<recipe_error>(
      [&] { (void)aorta::load_recipe(dir / "r.yaml", {dir / "comma.json"}); });
  ASSERT_TRUE(comma);
  EXPECT_THAT(comma->what(), HasSubstr("is not strict JSON"));
  const auto directory =
      thrown<recipe_error>([&] { (void)aorta::load_recipe(dir / "r.yaml", {dir}); });
  ASSERT_TRUE(directory);
  EXPECT_THAT(directory->what(), HasSubstr("is a directory"));
  std::filesystem::remove_all(dir);
}

}  // namespace

TEST(CellsRecipe, OneStackWrittenTwoWaysIsOneCell) {
  const std::string defined = "mitigations: {a: {env: {A: '1'}}, g: {env: {G: '1'}}}\n";
  const auto cells = plan_cells(load_recipe_from_string(
      "schema_version: 1\nmitigation_axis: [none, 'a + g']\n" + defined, "r.yaml"));
  ASSERT_EQ(cells.size(), 2U);
  EXPECT_EQ(cells[1].name, "a+g");
  EXPECT_EQ(cells[1].mitigation, "a+g");
  EXPECT_THAT(failure("schema_version: 1\nmitigation_axis: [a+g, g+a]\n" + defined),
              HasSubstr("'g+a' stacks the same mitigations, in another order, as 'a+g' (at "
                        "r.yaml:2:"));
  EXPECT_THAT(failure("schema_version: 1\nmitigation_axis: [a+g, 'a +g']\n" + defined),
              HasSubstr("'a +g' is the same stack as 'a+g'"));
}

TEST(CellsRecipe, CellsPastTheLimitAreRefusedBeforeAnyIsPlanned) {
  // 65 x 64 = 4160 cells of names that are never defined: the count is refused first.
  std::string mitigations = "none";
  for (int i = 0; i < 64; ++i) mitigations += fmt::format(", m{}", i);
  std::string diagnostics = "none";
  for (int i = 0; i < 63; ++i) diagnostics += fmt::format(", d{}", i);
  EXPECT_THAT(failure(fmt::format("schema_version: 1\nmitigation_axis: [{}]\n"
                                  "diagnostic_axis: [{}]\n",
                                  mitigations, diagnostics)),
              HasSubstr("65 mitigation(s) x 64 diagnostic(s) would make more than 4096 cells "
                        "(max_cells)"));
}

// Each cell held a copy of the whole recipe (3,000 cells: 2.5 GB); now the cells of one
// diagnostic share one collector list and one trial recipe, which holds no cell blocks.
TEST(CellsRecipe, CellsOfOneDiagnosticShareOneRecipeWithoutTheCellBlocks) {
  const auto spec = load_recipe_from_string(
      "schema_version: 1\ncollect: []\nmitigations: {a: {}, b: {}}\n"
      "diagnostics: {cg: [callgrind]}\nmitigation_axis: [none, a, b]\n"
      "diagnostic_axis: [none, cg]\n",
      "r.yaml");
  const auto cells = plan_cells(spec);
  ASSERT_EQ(cells.size(), 6U);  // none.none, none.cg, a.none, a.cg, b.none, b.cg
  ASSERT_TRUE(cells[1].collect);
  EXPECT_EQ(cells[1].collect.get(), cells[5].collect.get());
  aorta::detail::trial_recipes recipes(spec);
  const auto plain = recipes.of(cells[0]);
  const auto traced = recipes.of(cells[1]);
  EXPECT_EQ(plain.get(), recipes.of(cells[4]).get());
  EXPECT_EQ(traced.get(), recipes.of(cells[3]).get());
  EXPECT_NE(plain.get(), traced.get());
  EXPECT_TRUE(plain->collect.empty());
  ASSERT_EQ(traced->collect.size(), 1U);
  EXPECT_EQ(traced->collect.front().name, "callgrind");
  for (const auto& trial_spec : {plain, traced}) {
    EXPECT_TRUE(trial_spec->mitigations.empty());
    EXPECT_TRUE(trial_spec->diagnostics.empty());
    EXPECT_EQ(trial_spec->mitigation_axis.size(), 1U);
    EXPECT_EQ(trial_spec->diagnostic_axis.size(), 1U);
    EXPECT_EQ(trial_spec->path, spec.path);
  }
}

// Each cell's reference is the baseline mitigation under the cell's own diagnostic, whatever the
// baseline cell's diagnostic; the baseline mitigation's own cells have none.
TEST(CellsRecipe, ReferenceCellsPairEachDiagnosticWithTheBaselineMitigation) {
  const auto cells = plan_cells(load(two_mitigations +
                                     "diagnostics:\n  quiet: []\n  loud: []\n"
                                     "mitigation_axis: [none, fast, fast+big, slow]\n"
                                     "diagnostic_axis: [quiet, loud]\n"));
  ASSERT_EQ(cells.size(), 8U);
  ASSERT_EQ(cells[3].name, "fast.loud");
  // Baseline `fast.loud` (index 3): its mitigation `fast` is at 2 (quiet) and 3 (loud).
  const auto references = aorta::detail::reference_cells(cells, 3);
  const std::vector<std::optional<std::size_t>> expected{2, 3, std::nullopt, std::nullopt,
                                                         2, 3, 2, 3};
  EXPECT_EQ(references, expected);
  const auto from_none = aorta::detail::reference_cells(cells, 0);
  EXPECT_EQ(from_none, (std::vector<std::optional<std::size_t>>{std::nullopt, std::nullopt, 0, 1,
                                                                0, 1, 0, 1}));
}
