# Cells end to end (docs/recipes.md, "Cells"): the example's two mitigations run interleaved under
# callgrind, judged against each other (the heavier one is SLOWER by its Ir, exactly), reported in
# matrix.json / matrix.md; and the refusals that depend on the command line.
add_executable(aorta_cli_cells_work ${PROJECT_SOURCE_DIR}/examples/cells/callgrind-ab/cells_work.cpp)
target_link_libraries(aorta_cli_cells_work PRIVATE aorta_warnings)
target_compile_options(aorta_cli_cells_work PRIVATE $<$<CXX_COMPILER_ID:GNU,Clang>:-fno-sanitize=all>)
target_link_options(aorta_cli_cells_work PRIVATE $<$<CXX_COMPILER_ID:GNU,Clang>:-fno-sanitize=all>)
set(cells_work "$<TARGET_FILE:aorta_cli_cells_work>")
set(cells_recipe "${PROJECT_SOURCE_DIR}/examples/cells/callgrind-ab/recipe.yaml")

# Usage refusals need no profiler. Each has its own output directory: tests run in parallel, and
# each refusal is recorded in its directory's result.json (a refusal comes before the directory's
# lock, and is recorded only when no other run holds it: aorta.cli.lifetime.usage_refusal_before_the_lock).
aorta_cli_test(cells.unknown_baseline_cell RC 64
  COMMAND "${aorta}" sweep run --recipe "${cells_recipe}" --output "${out}/cells_bad_unknown_baseline_cell"
          --baseline-cell bsae -- "${cells_work}"
  OUTPUT "--baseline-cell 'bsae': no such cell. Did you mean 'base'\\? Cells: base, heavy.")
aorta_cli_test(cells.strict_needs_cells RC 64
  COMMAND "${aorta}" sweep run --recipe "${recipes}/callgrind_ratio.yaml"
          --output "${out}/cells_strict_plain" --strict -- "${cells_work}"
  OUTPUT "--baseline-cell, --confound-threshold and --strict judge the cells of a recipe")
aorta_cli_test(cells.threshold_below_one RC 64
  COMMAND "${aorta}" sweep run --recipe "${cells_recipe}" --output "${out}/cells_bad_threshold_below_one"
          --confound-threshold 0.5 -- "${cells_work}"
  OUTPUT "--confound-threshold 0.5: the threshold is a ratio cell / baseline cell from 1 to 1000")
aorta_cli_test(cells.ab_refuses_a_recipe_with_cells RC 64
  COMMAND "${aorta}" ab --recipe "${cells_recipe}" --output "${out}/cells_bad_ab_refuses_a_recipe_with_cells"
          --base "${cells_work}" --head "${cells_work}"
  OUTPUT "aorta ab: .*recipe.yaml already has cells")
# The regression gate judges one test against its baseline, not cells against each other: asked
# for over cells (a baseline check, --gate, the recipe's gate:) it is refused as --baseline is,
# instead of being dropped without a word.
aorta_cli_test(cells.baseline_check_refused RC 64
  COMMAND "${aorta}" sweep run --recipe "${cells_recipe}" --output "${out}/cells_bad_baseline_check_refused"
          --check "ir(^work) <= baseline + 5%" -- "${cells_work}"
  OUTPUT "check 'ir\\(\\^work\\) <= baseline \\+ 5%' with a recipe that has cells: the regression gate judges one test against its baseline"
         "Fix: drop it, or compare the cells with a cell-addressed check \\(e\\.g\\. 'ir\\(\\^work\\)@heavy / ir\\(\\^work\\)@base <= 1\\.05'")
aorta_cli_test(cells.gate_flag_refused RC 64
  COMMAND "${aorta}" sweep run --recipe "${cells_recipe}" --output "${out}/cells_bad_gate_flag_refused" --dry-run
          --gate "time +5%" -- "${cells_work}"
  OUTPUT "--gate with a recipe that has cells: the regression gate judges one test against its baseline")
aorta_cli_test(cells.baseline_flag_refused RC 64
  COMMAND "${aorta}" sweep run --recipe "${cells_recipe}" --output "${out}/cells_bad_baseline_flag_refused"
          --baseline "${out}/cells_no_baselines" -- "${cells_work}"
  OUTPUT "--baseline with a recipe that has cells: the baseline gate judges one test against another process")
file(GENERATE OUTPUT "${out}/cells_gate-$<CONFIG>.yaml" CONTENT "schema_version: 1
trials: 2
collect: [callgrind]
mitigations:
  base: {env: {CELLS_STEPS: 32}}
  heavy: {env: {CELLS_STEPS: 36}}
mitigation_axis: [base, heavy]
gate: time +5%
check:
  - 'ir(^work) <= baseline'
")
aorta_cli_test(cells.recipe_gate_refused RC 64
  COMMAND "${aorta}" sweep run --recipe "${out}/cells_gate-$<CONFIG>.yaml"
          --output "${out}/cells_bad_recipe_gate_refused" -- "${cells_work}"
  OUTPUT "cells_gate-[A-Za-z]*\\.yaml: gate: with cells: the regression gate judges one test against its baseline"
         "Fix: drop the recipe's gate:")
aorta_cli_test(cells.validate_lists_cells RC 0
  COMMAND "${aorta}" validate "${cells_recipe}"
  OUTPUT "cell base: 2 trial\\(s\\)" "cell heavy: 2 trial\\(s\\)")

# A strict confound verdict that could never fail on a time is refused before anything runs
# (issue 39, item 6): 3 rounds cannot reach p < 0.05 (the smallest one-sided p is 1/8), and no
# planned run reaches alpha 1e-300; gbench times are judged by the paired test.
file(GENERATE OUTPUT "${out}/cells_strict_gbench-$<CONFIG>.yaml" CONTENT "schema_version: 1
trials: 3
collect: [gbench]
mitigations:
  base: {env: {CELLS_STEPS: 32}}
  head: {env: {CELLS_STEPS: 36}}
mitigation_axis: [base, head]
")
aorta_cli_test(cells.strict_too_few_rounds_refused RC 64
  COMMAND "${aorta}" sweep run --recipe "${out}/cells_strict_gbench-$<CONFIG>.yaml"
          --output "${out}/cells_bad_strict_too_few_rounds" --strict --dry-run -- "${cells_work}"
  OUTPUT "--strict with 3 round\\(s\\) of cell head against base: the paired signed-rank test needs at least 5 rounds to call a timed row SLOWER at alpha 0\\.05"
  NOT_OUTPUT "dry run: recipe valid")
aorta_cli_test(cells.strict_enough_rounds_accepted RC 0
  COMMAND "${aorta}" sweep run --recipe "${out}/cells_strict_gbench-$<CONFIG>.yaml"
          --output "${out}/cells_bad_strict_enough_rounds" --strict --trials 5 --dry-run -- "${cells_work}"
  OUTPUT "dry run: recipe valid")
file(GENERATE OUTPUT "${out}/cells_absurd_alpha-$<CONFIG>.yaml" CONTENT "schema_version: 1
trials: 10
collect: [gbench]
mitigations:
  base: {env: {CELLS_STEPS: 32}}
  head: {env: {CELLS_STEPS: 36}}
mitigation_axis: [base, head]
confound: {fail: true, alpha: 1e-300}
")
aorta_cli_test(cells.absurd_alpha_refused RC 64
  COMMAND "${aorta}" sweep run --recipe "${out}/cells_absurd_alpha-$<CONFIG>.yaml"
          --output "${out}/cells_bad_absurd_alpha" --dry-run -- "${cells_work}"
  OUTPUT "confound\\.fail: true with 10 round\\(s\\) of cell head against base: the paired signed-rank test needs at least [0-9]+ rounds to call a timed row SLOWER at alpha 1e-300")


if(NOT AORTA_TEST_VALGRIND)
  message(STATUS "tests/cli: valgrind not found, the cells CLI runs are not registered")
  return()
endif()

aorta_cli_test(cells.callgrind_ab RC 0 TIMEOUT 300
  CLEAN "${out}/cells_ab"
  COMMAND "${aorta}" sweep run --recipe "${cells_recipe}" --output "${out}/cells_ab" --seed 7
          -- "${cells_work}" 4096
  OUTPUT "2 cell\\(s\\), interleaved one trial per cell per round \\(seed 7\\)"
         "cell heavy trial 1: pass"
         "4 trial\\(s\\): 4 passed, 0 failed, 0 skipped"
         "heavy +base +ir\\(work[^\n]+ \\+12\\.50% +100% self +exact +SLOWER +more work \\(Ir \\+12\\.50%\\)\n"
         "heavy +base +ir\\(main\\)[^\n]+ 0% self +exact +SLOWER +more work in its callees"
         "aorta: summary: heavy is [0-9.]+% slower than base \\(total Ir, exact\\) in work\\(unsigned long, unsigned long, unsigned long\\) \\(\\+12\\.5% itself\\), 100% of the change \\(self\\), more work \\(Ir \\+12\\.50%\\); also moved: main \\(caller, self 0%\\)"
         "confound: [1-9][0-9]* SLOWER, 0 UNKNOWN"
  NOT_OUTPUT "cells_ab/trial_0"
  FILES "${out}/cells_ab/matrix.md" "${out}/cells_ab/base/trial_1/callgrind"
  JSON "${out}/cells_ab/matrix.json::schema=aorta-matrix"
       "${out}/cells_ab/matrix.json::seed=7"
       "${out}/cells_ab/matrix.json::cells/1/name=heavy"
       "${out}/cells_ab/matrix.json::cells/1/mitigations/0=heavy"
       "${out}/cells_ab/matrix.json::schema_version=2"
       "${out}/cells_ab/matrix.json::cells/1/change_set=1"
       "${out}/cells_ab/matrix.json::change_sets/1/mitigation=heavy"
       "${out}/cells_ab/matrix.json::change_sets/1/resolved_env_vars/CELLS_STEPS=36"
       "${out}/cells_ab/matrix.json::cells/1/passed_count=2"
       "${out}/cells_ab/matrix.json::cells/1/metrics_summary/callgrind_total_ir/n=2"
       "${out}/cells_ab/matrix.json::confound/baseline_cell=base"
       "${out}/cells_ab/heavy/trial_1/result.json::cell/name=heavy"
       "${out}/cells_ab/heavy/trial_1/result.json::cell/round=1"
       "${out}/cells_ab/heavy/trial_1/result.json::cell/position=*")

# The same run with --strict: the SLOWER cell fails it, and the FAILED line (a CI log's tail, CTest's
# JUnit) carries the summary sentence.
aorta_cli_test(cells.strict_fails_on_slower RC 1 TIMEOUT 300
  CLEAN "${out}/cells_strict"
  COMMAND "${aorta}" sweep run --recipe "${cells_recipe}" --output "${out}/cells_strict"
          --strict --trials 1 -- "${cells_work}" 4096
  OUTPUT "FAILED: the confound verdicts fail the run \\(--strict\\): heavy is [0-9.]+% slower than base \\(total Ir, exact\\) in work")

# Two builds of one payload: each cell replaces the command, and none is given after `--`.
file(GENERATE OUTPUT "${out}/cells_builds-$<CONFIG>.yaml" CONTENT "schema_version: 1
trials: 2
collect: [callgrind]
mitigations:
  base: {command: ['${cells_work}', '4096']}
  head: {command: ['${cells_work}', '4096'], env: {CELLS_STEPS: 32}}
mitigation_axis: [base, head]
confound: {baseline_cell: base, threshold: 1.05, fail: true}
")
aorta_cli_test(cells.two_commands_same_work RC 0 TIMEOUT 300
  CLEAN "${out}/cells_builds"
  COMMAND "${aorta}" sweep run --recipe "${out}/cells_builds-$<CONFIG>.yaml"
          --output "${out}/cells_builds"
  OUTPUT "confound: 0 SLOWER, 0 UNKNOWN"
  JSON "${out}/cells_builds/matrix.json::confound/fail=ON"
       "${out}/cells_builds/head/trial_0/result.json::verdict=pass")

# `aorta ab`: the same program as base and head (A/A) is no regression, even under --strict.
aorta_cli_test(cells.ab_same_build RC 0 TIMEOUT 300
  CLEAN "${out}/cells_ab_same"
  COMMAND "${aorta}" ab --recipe "${recipes}/cells_plain.yaml" --output "${out}/cells_ab_same"
          --base "${cells_work}" --head "${cells_work}" --trials 2 --strict
          -- 4096
  OUTPUT "confound verdicts against cell base \\(threshold 1\\.05" "confound: 0 SLOWER, 0 UNKNOWN"
  JSON "${out}/cells_ab_same/matrix.json::cells/1/name=head"
       "${out}/cells_ab_same/matrix.json::cells/1/change_set=1"
       "${out}/cells_ab_same/matrix.json::change_sets/1/command/1=4096")

# A cells run into a directory with an earlier run's passed cell check, interrupted by SIGINT:
# `aorta report` shows this run's trials with matrix.json marked incomplete, never the earlier
# run's verdicts (issue 39, item 3; tests/cli/lifetime/cells_rerun.py).
find_package(Python3 REQUIRED COMPONENTS Interpreter)
add_test(NAME aorta.cli.cells.interrupted_rerun_keeps_no_earlier_verdicts
  COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/lifetime/cells_rerun.py
          --aorta "${aorta}" --work "${out}/cells_rerun" cells_interrupted_rerun_sigint)
set_tests_properties(aorta.cli.cells.interrupted_rerun_keeps_no_earlier_verdicts PROPERTIES
  LABELS cli TIMEOUT 300 SKIP_RETURN_CODE 77
  ENVIRONMENT "AORTA_CELLS_WORK=$<TARGET_FILE:aorta_cli_cells_work>")

# An A/A of one build copied under two file names (issue 39, item 7): callgrind labelled the
# program's `(below main)` with the binary's file name, so no row of head matched base and
# --strict failed on UNKNOWN rows.
aorta_cli_test(cells.ab_copies_of_one_build RC 0 TIMEOUT 300
  CLEAN "${out}/cells_ab_copies"
  COMMAND /bin/sh -c "mkdir -p \"$1\" && cp \"$0\" \"$1/hot_base\" && cp \"$0\" \"$1/hot_base_copy\" && exec \"$2\" ab --recipe \"$3\" --output \"$1/out\" --base \"$1/hot_base\" --head \"$1/hot_base_copy\" --trials 2 --strict -- 4096"
          "${cells_work}" "${out}/cells_ab_copies" "${aorta}" "${recipes}/cells_plain.yaml"
  OUTPUT "confound: 0 SLOWER, 0 UNKNOWN" "\\(head: [0-9]+ loader/libc row\\(s\\) folded, all SAME\\)"
  NOT_OUTPUT "hot_base_copy\\]"
  FILE_REGEX "${out}/cells_ab_copies/out/matrix.md" "ir\\(\\(below main\\) \\[\\?\\?\\? in <program>\\]\\)")
