# Cell-addressed checks end to end (docs/checks-and-metrics.md, "Checks over cells"): `term@cell`
# over the callgrind-ab example's cells (built in cells.cmake), judged once after every cell ran;
# and the refusals at load (64), which need no profiler.
aorta_cli_test(cell_checks.unknown_cell_in_recipe RC 64
  COMMAND "${aorta}" validate "${recipes}/bad/cells_check_unknown_cell.yaml"
  OUTPUT "cells_check_unknown_cell\\.yaml:9:5: check: 'ir\\(\\^work\\)@haevy / ir\\(\\^work\\)@base > 1' names cell 'haevy', which is not a cell of this recipe; its cells: base, heavy\\. Fix: name one of them after '@'")
aorta_cli_test(cell_checks.unknown_cell_flag RC 64
  COMMAND "${aorta}" sweep run --recipe "${cells_recipe}" --output "${out}/cell_checks_bad"
          --check "ir(^work)@heavy / ir(^work)@bsae > 1" -- "${cells_work}"
  OUTPUT "--check: 'ir\\(\\^work\\)@heavy / ir\\(\\^work\\)@bsae > 1' names cell 'bsae', which is not a cell of this recipe; its cells: base, heavy"
  NO_FILES "${out}/cell_checks_bad/base")
aorta_cli_test(cell_checks.recipe_without_cells RC 64
  COMMAND "${aorta}" sweep run --recipe "${recipes}/callgrind_ratio.yaml"
          --output "${out}/cell_checks_plain" --check "ir(^main$)@base > 0" -- "${cells_work}"
  OUTPUT "names cell 'base', but the recipe has no cells \\(mitigation_axis and diagnostic_axis are \\[none\\]\\)")
aorta_cli_test(cell_checks.mixed_terms RC 64
  COMMAND "${aorta}" sweep run --recipe "${cells_recipe}" --output "${out}/cell_checks_bad"
          --check "ir(^work)@heavy / ir(^work) > 1" -- "${cells_work}"
  OUTPUT "expected '@CELL' after both terms of a ratio or after neither")
# One capture has no cells.
aorta_cli_test(cell_checks.refused_by_aorta_check RC 64
  COMMAND "${aorta}" check "${PROJECT_SOURCE_DIR}/examples" --check "ir(^work)@base > 0"
  OUTPUT "--check 'ir\\(\\^work\\)@base > 0' names a cell: a cell-addressed check compares the cells of one `aorta sweep run`, not one capture")

if(NOT AORTA_TEST_VALGRIND)
  return()
endif()

# CELLS_STEPS 36 against 32: work() does 12.5% more, so Ir(work)@heavy / Ir(work)@base is 1.125.
aorta_cli_test(cell_checks.pass RC 0 TIMEOUT 300
  CLEAN "${out}/cell_checks_pass" FIXTURES_SETUP cell_checks_swept
  COMMAND "${aorta}" sweep run --recipe "${cells_recipe}" --output "${out}/cell_checks_pass"
          --seed 7 --check "ir(^work)@heavy / ir(^work)@base >= 1.1"
          --check "callgrind_total_ir@base > 0" -- "${cells_work}" 4096
  OUTPUT "cell check PASS  ir\\(\\^work\\)@heavy / ir\\(\\^work\\)@base >= 1\\.1  \\(actual 1\\.12[0-9]* \\([0-9]+ / [0-9]+\\)\\)"
         "cell check PASS  callgrind_total_ir@base > 0"
  NOT_OUTPUT "cell check FAIL"
  JSON "${out}/cell_checks_pass/matrix.json::checks/0/expression=ir(^work)@heavy / ir(^work)@base >= 1.1"
       "${out}/cell_checks_pass/matrix.json::checks/0/passed=ON"
       "${out}/cell_checks_pass/matrix.json::checks/1/passed=ON"
       # Not a per-trial check: the trials' result.json hold only the recipe's own check.
       "${out}/cell_checks_pass/heavy/trial_0/result.json::checks/0/expression=ir(^work) > 0")

# `aorta report` over that output writes report.json from the trials' result.json, which do not
# hold the verdicts over cells: it carries over the sweep's checks[], confound and per-cell recipe
# keys (docs/output-files.md), and leaves matrix.json and matrix.md as the sweep wrote them
# (report_sweep_matrix.ReportSweepMatrix.KeepsTheSweepsVerdicts compares the bytes).
aorta_cli_test(cell_checks.report_keeps_verdicts RC 0 FIXTURES_REQUIRED cell_checks_swept
  COMMAND "${aorta}" report "${out}/cell_checks_pass"
  OUTPUT "report: 4 trials in 2 cells -> perf\\.md, report\\.json, report\\.html"
         "report\\.json keeps the sweep's 2 cell check\\(s\\) \\(2 passed, 0 failed\\) and its confound verdicts against base"
  FILE_REGEX "${out}/cell_checks_pass/matrix.md" "## Checks over cells"
             "${out}/cell_checks_pass/matrix.md" "\\| `ir\\(\\^work\\)@heavy / ir\\(\\^work\\)@base >= 1\\.1` \\| PASS \\|"
  JSON "${out}/cell_checks_pass/report.json::checks/0/expression=ir(^work)@heavy / ir(^work)@base >= 1.1"
       "${out}/cell_checks_pass/report.json::checks/0/passed=ON"
       "${out}/cell_checks_pass/report.json::checks/1/expression=callgrind_total_ir@base > 0"
       "${out}/cell_checks_pass/report.json::checks/1/passed=ON"
       "${out}/cell_checks_pass/report.json::confound/baseline_cell=base"
       "${out}/cell_checks_pass/report.json::confound/verdict_counts/SLOWER=*"
       "${out}/cell_checks_pass/report.json::confound/rows/0/verdict=*"
       "${out}/cell_checks_pass/report.json::seed=7"
       "${out}/cell_checks_pass/report.json::cells/1/name=heavy"
       "${out}/cell_checks_pass/report.json::cells/1/mitigations/0=heavy"
       # The report's own keys, which the sweep's matrix.json does not have.
       "${out}/cell_checks_pass/report.json::run_started_at=*"
       "${out}/cell_checks_pass/report.json::cells/1/top_kernels=*")

# The same ratio held to 5%: the run fails with the check exit code (1), every trial having passed.
aorta_cli_test(cell_checks.fail RC 1 TIMEOUT 300
  CLEAN "${out}/cell_checks_fail"
  COMMAND "${aorta}" sweep run --recipe "${cells_recipe}" --output "${out}/cell_checks_fail"
          --seed 7 --check "ir(^work)@heavy / ir(^work)@base <= 1.05" -- "${cells_work}" 4096
  OUTPUT "4 trial\\(s\\): 4 passed, 0 failed, 0 skipped"
         "cell check FAIL  ir\\(\\^work\\)@heavy / ir\\(\\^work\\)@base <= 1\\.05"
         "ir\\(\\^work\\)@base: median [0-9]+ of 2 trial\\(s\\)"
         "aorta: FAILED: 1 of 1 cell check\\(s\\) failed"
  FILES "${out}/cell_checks_fail/matrix.md"
  JSON "${out}/cell_checks_fail/matrix.json::checks/0/passed=OFF")

# A cell whose function vanished (head runs a program without work()): its term is not measured,
# and the check fails as unknown, where ir() of nothing read 0 and `0 / x <= 1.05` passed (issue
# 39, items 1 and 2).
file(GENERATE OUTPUT "${out}/cell_checks_vanished-$<CONFIG>.yaml" CONTENT "schema_version: 1
trials: 1
collect: [callgrind]
mitigations:
  base: {command: ['${cells_work}', '4096']}
  head: {command: ['/bin/true']}
mitigation_axis: [base, head]
")
aorta_cli_test(cell_checks.vanished_function_fails RC 1 TIMEOUT 300
  CLEAN "${out}/cell_checks_vanished"
  COMMAND "${aorta}" sweep run --recipe "${out}/cell_checks_vanished-$<CONFIG>.yaml"
          --output "${out}/cell_checks_vanished" --check "ir(^work)@head / ir(^work)@base <= 1.05"
  OUTPUT "cell check FAIL  ir\\(\\^work\\)@head / ir\\(\\^work\\)@base <= 1\\.05  \\(actual unknown\\)"
         "ir\\(\\^work\\) matches none of the functions a trial records"
  JSON "${out}/cell_checks_vanished/matrix.json::checks/0/passed=OFF")
