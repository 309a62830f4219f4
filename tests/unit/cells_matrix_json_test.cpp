// matrix.json of a run with cells: a cell's environment, command and arguments are written once
// per mitigation_axis entry (change_sets[]) and each cell names its entry (schema version 2).
#include "aorta/recipe.hpp"
#include "aorta/schema.hpp"
#include "cells/matrix_report.hpp"
#include "json_document.hpp"
#include "recipe/cell_plan.hpp"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <string>

namespace {

using aorta::detail::matrix_run;

// `wide` appends `arguments` numbered arguments; the axis puts it and `none` under `diagnostics`
// diagnostics of no collector.
matrix_run wide_run(int arguments, int diagnostics) {
  std::string args;
  for (int i = 0; i < arguments; ++i) args += fmt::format("{}--wide-{}", i == 0 ? "" : ", ", i);
  std::string axis = "none";
  std::string defined;
  for (int d = 1; d < diagnostics; ++d) {
    axis += fmt::format(", d{}", d);
    defined += fmt::format("  d{}: []\n", d);
  }
  const auto spec = aorta::load_recipe_from_string(
      fmt::format("schema_version: 1\nmode: probe\ncollect: []\n"
                  "mitigations:\n  wide: {{env: {{MODE: wide}}, unset: [DEBUG], args: [{}]}}\n"
                  "diagnostics:\n{}mitigation_axis: [none, wide]\ndiagnostic_axis: [{}]\n",
                  args, defined, axis),
      "r.yaml");
  matrix_run run;
  run.cells = aorta::detail::plan_cells(spec);
  run.trials.resize(run.cells.size());
  run.base_command = {"./bench", "--size", "4096"};
  return run;
}

std::size_t occurrences(const std::string& text, const std::string& needle) {
  std::size_t count = 0;
  for (auto at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) {
    ++count;
  }
  return count;
}

TEST(CellsMatrixJson, EachMitigationsChangesAreWrittenOnceAndNamedByItsCells) {
  const matrix_run run = wide_run(3, 4);
  ASSERT_EQ(run.cells.size(), 8U);
  const auto document = aorta::detail::matrix_json(run);
  EXPECT_EQ(document.at("schema_version"), aorta::schemas::matrix.version);
  EXPECT_EQ(aorta::schemas::matrix.version, 2);
  const auto& sets = document.at("change_sets");
  ASSERT_EQ(sets.size(), 2U);
  EXPECT_EQ(sets[0].at("mitigation"), "none");
  EXPECT_EQ(sets[0].at("command"), (std::vector<std::string>{"./bench", "--size", "4096"}));
  EXPECT_TRUE(sets[0].at("extra_args").empty());
  EXPECT_TRUE(sets[0].at("resolved_env_vars").empty());
  EXPECT_EQ(sets[1].at("mitigation"), "wide");
  EXPECT_EQ(sets[1].at("extra_args"),
            (std::vector<std::string>{"--wide-0", "--wide-1", "--wide-2"}));
  EXPECT_EQ(sets[1].at("resolved_env_vars").at("MODE"), "wide");
  EXPECT_EQ(sets[1].at("unset_env_vars"), std::vector<std::string>{"DEBUG"});
  EXPECT_EQ(sets[1].at("command"), sets[0].at("command"));
  const auto& cells = document.at("cells");
  for (std::size_t i = 0; i < cells.size(); ++i) {
    SCOPED_TRACE(cells[i].at("name").get<std::string>());
    EXPECT_EQ(cells[i].at("change_set"), i < 4 ? 0 : 1);
    for (const char* moved : {"extra_args", "command", "resolved_env_vars", "unset_env_vars"}) {
      EXPECT_FALSE(cells[i].contains(moved)) << moved;
    }
  }
}

// 2,000 arguments under 64 diagnostics: each argument is in the file once, not once per cell.
TEST(CellsMatrixJson, AWideMitigationUnderManyDiagnosticsIsNotCopiedPerCell) {
  const matrix_run run = wide_run(2000, 64);
  ASSERT_EQ(run.cells.size(), 128U);
  const std::string text = aorta::detail::document_text(aorta::detail::matrix_json(run));
  EXPECT_EQ(occurrences(text, "\"--wide-1999\""), 1U);
  // The command after `--` is each of the two entries' command: twice, not once per cell (128).
  EXPECT_EQ(occurrences(text, "\"./bench\""), 2U);
  EXPECT_LT(text.size(), 200'000U);
}

}  // namespace
