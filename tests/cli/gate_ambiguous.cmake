# A gate row still AMBIGUOUS when the trial budget is spent, through the real CLI
# (docs/regression-gate.md, "AMBIGUOUS at the budget"): series_benchmark.sh replays known samples
# (tests/fixtures/gate-ambiguous/README.md; '.' stands for ';', a CMake list separator), so the row is AMBIGUOUS on any machine. Each policy's
# exit code, the verdict line naming the row (what CTest and its JUnit file keep), and report.html
# and perf.md listing it; compare under each policy on the hand-made baselines of gate-stats.
set(ga_fixture "${PROJECT_SOURCE_DIR}/tests/fixtures/gate-ambiguous")
set(ga_out "${out}/gate-ambiguous")
set(ga_gate "time +5%, alpha 0.0001, max_trials 5")
set(ga_row "k: time_ms\\(BM_k\\)")

aorta_cli_test(gate_ambiguous.record RC 0 FIXTURES_SETUP aorta_gate_ambiguous
  CLEAN "${ga_out}"
  COMMAND sh -c "'${aorta}' sweep run --recipe '${ga_fixture}/recipe.yaml' --output '${ga_out}/base/k' -- sh '${ga_fixture}/series_benchmark.sh' '${ga_fixture}/base.txt' '${ga_out}/base.count' && '${aorta}' baseline record '${ga_out}/base/k' --into '${ga_out}/baselines'"
  FILES "${ga_out}/baselines/k.json")

# The default: fail, naming the row on the verdict line and in the trial's recorded reason.
aorta_cli_test(gate_ambiguous.default_fails RC 1 FIXTURES_REQUIRED aorta_gate_ambiguous
  FIXTURES_SETUP aorta_gate_ambiguous_fail
  CLEAN "${ga_out}/fail" "${ga_out}/fail.count"
  COMMAND "${aorta}" sweep run --recipe "${ga_fixture}/recipe.yaml" --output "${ga_out}/fail/k"
          --baseline "${ga_out}/baselines" --gate "${ga_gate}"
          -- sh "${ga_fixture}/series_benchmark.sh" "${ga_fixture}/slow.txt" "${ga_out}/fail.count"
  OUTPUT "aorta: FAIL: trial 4: gate: 1 row\\(s\\) still AMBIGUOUS after 5 trial\\(s\\) \\(the budget\\): ${ga_row} \\(ambiguous fail"
         "time_ms\\(BM_k\\) .* AMBIGUOUS"
         "aorta: gate FAILED: AMBIGUOUS rows fail under 'ambiguous fail'; 1 row\\(s\\) still AMBIGUOUS"
  JSON "${ga_out}/fail/k/gate.json::verdict=fail"
       "${ga_out}/fail/k/gate.json::ambiguous_policy=fail"
       "${ga_out}/fail/k/gate.json::ambiguous_rows/0=k: time_ms(BM_k)"
       "${ga_out}/fail/k/gate.json::test_verdict/turned_to=fail"
       "${ga_out}/fail/k/trial_4/result.json::verdict=pass")

aorta_cli_test(gate_ambiguous.report_lists_the_failing_row RC 0
  FIXTURES_REQUIRED aorta_gate_ambiguous_fail
  COMMAND "${aorta}" report "${ga_out}/fail"
  FILE_REGEX "${ga_out}/fail/report.html" "<code>time_ms\\(BM_k\\) &lt.= baseline \\+ 5%</code></td><td class=\"fail\">AMBIGUOUS</td>"
             "${ga_out}/fail/report.html" "gate: 1 row\\(s\\) still AMBIGUOUS"
             "${ga_out}/fail/perf.md" "time_ms\\(BM_k\\) <= baseline \\+ 5%")

# skip: exit 77 (CTest's Skipped), the row named.
aorta_cli_test(gate_ambiguous.skip RC 77 FIXTURES_REQUIRED aorta_gate_ambiguous
  CLEAN "${ga_out}/skip" "${ga_out}/skip.count"
  COMMAND "${aorta}" sweep run --recipe "${ga_fixture}/recipe.yaml" --output "${ga_out}/skip/k"
          --baseline "${ga_out}/baselines" --gate "${ga_gate}, ambiguous fail" --ambiguous skip
          -- sh "${ga_fixture}/series_benchmark.sh" "${ga_fixture}/slow.txt" "${ga_out}/skip.count"
  OUTPUT "aorta: SKIP: gate: 1 row\\(s\\) still AMBIGUOUS after 5 trial\\(s\\) \\(the budget\\): ${ga_row} \\(ambiguous skip"
  JSON "${ga_out}/skip/k/gate.json::verdict=skip"
       "${ga_out}/skip/k/gate.json::test_verdict/turned_to=skip"
       "${ga_out}/skip/k/trial_4/result.json::verdict=pass")

# pass: exit 0, and still named on the verdict line, within the 1024 bytes of a passing test's
# output that CTest's JUnit file keeps, and in the report.
aorta_cli_test(gate_ambiguous.pass RC 0 FIXTURES_REQUIRED aorta_gate_ambiguous
  FIXTURES_SETUP aorta_gate_ambiguous_pass
  CLEAN "${ga_out}/pass" "${ga_out}/pass.count"
  COMMAND "${aorta}" sweep run --recipe "${ga_fixture}/recipe.yaml" --output "${ga_out}/pass/k"
          --baseline "${ga_out}/baselines" --gate "${ga_gate}, ambiguous pass"
          -- sh "${ga_fixture}/series_benchmark.sh" "${ga_fixture}/slow.txt" "${ga_out}/pass.count"
  HEAD 1024 "aorta: PASS: 5 trial\\(s\\): 5 passed, 0 failed, 0 skipped. the gate against the baseline passed. gate WARNING: 1 row\\(s\\) still AMBIGUOUS after 5 trial\\(s\\) \\(the budget\\): ${ga_row} \\(ambiguous pass\\)"
  JSON "${ga_out}/pass/k/gate.json::verdict=warn"
       "${ga_out}/pass/k/trial_4/result.json::verdict=pass")

aorta_cli_test(gate_ambiguous.report_lists_the_passed_row RC 0
  FIXTURES_REQUIRED aorta_gate_ambiguous_pass
  COMMAND "${aorta}" report "${ga_out}/pass"
  FILE_REGEX "${ga_out}/pass/report.html" "<td class=\"skip\">AMBIGUOUS</td>"
             "${ga_out}/pass/report.html" "1 gate row\\(s\\) AMBIGUOUS: time_ms\\(BM_k\\) &lt.= baseline \\+ 5%"
             "${ga_out}/pass/perf.md" "Gate rows still AMBIGUOUS")

aorta_cli_test(gate_ambiguous.bad_policy RC 64
  COMMAND "${aorta}" compare "${gate_stats}/base" "${gate_stats}/slow" --gate "time +5%, ambiguous maybe"
  OUTPUT "item 'ambiguous maybe' takes 'fail', 'skip' or 'pass'")

# The cells side: a confound row past the threshold but not significant (head about 1.2x base
# in 4 rounds and 0.95x in one, tests/fixtures/gate-ambiguous/README.md) under --strict;
# --ambiguous decides, and matrix.json records the policy.
set(ga_cells "${out}/gate-ambiguous-cells")
file(WRITE "${ga_cells}/cells-base.txt" "1.00\n1.10\n1.20\n1.05\n1.15\n")
file(WRITE "${ga_cells}/cells-head.txt" "1.35\n1.30\n1.45\n1.00\n1.40\n")
set(ga_cells_row "time_ms\\(BM_k\\) .*AMBIGUOUS")
# One recipe per policy, each with its own counter files: the three run in parallel.
foreach(policy_rc "fail;1" "skip;77" "pass;0")
  list(GET policy_rc 0 policy)
  list(GET policy_rc 1 rc)
  set(counts "${ga_cells}/cells-${policy}-counts")
  file(GENERATE OUTPUT "${ga_cells}/cells-${policy}-$<CONFIG>.yaml" CONTENT "schema_version: 1
trials: 5
collect: [gbench]
mitigations:
  base: {env: {CELL_TIMES: '${ga_cells}/cells-base.txt', CELL_COUNT: '${counts}/base'}}
  head: {env: {CELL_TIMES: '${ga_cells}/cells-head.txt', CELL_COUNT: '${counts}/head'}}
mitigation_axis: [base, head]
")
  aorta_cli_test(gate_ambiguous.cells_${policy} RC ${rc}
    CLEAN "${ga_cells}/cells-${policy}" "${counts}/base" "${counts}/head"
    COMMAND sh -c "mkdir -p '${counts}' && exec \"$0\" \"$@\"" "${aorta}" sweep run
            --recipe "${ga_cells}/cells-${policy}-$<CONFIG>.yaml" --output "${ga_cells}/cells-${policy}"
            --strict --ambiguous ${policy} -- sh "${ga_fixture}/cell_series.sh"
    OUTPUT "${ga_cells_row}"
    JSON "${ga_cells}/cells-${policy}/matrix.json::confound/ambiguous=${policy}")
endforeach()

# A cell whose every trial was skipped (its environment could not run it: exit 2, listed in
# environment_exit_codes) measured nothing, so the comparison has no side there. The confound
# verdicts only report here (no confound.fail, no --strict), and the other cell passed; the run is
# still skipped (77) naming the cell, never a pass. The same recipe with both cells measuring
# passes (0): the control.
set(ga_unmeasured "${out}/gate-ambiguous-unmeasured")
foreach(case_rc "skipped;1;77" "measured;0;0")
  list(GET case_rc 0 case)
  list(GET case_rc 1 loaded_skips)
  list(GET case_rc 2 rc)
  set(counts "${ga_unmeasured}/${case}-counts")
  file(GENERATE OUTPUT "${ga_unmeasured}/${case}-$<CONFIG>.yaml" CONTENT "schema_version: 1
trials: 3
collect: [gbench]
environment_exit_codes: [2]
mitigations:
  base: {env: {CELL_TIMES: '${ga_cells}/cells-base.txt', CELL_COUNT: '${counts}/base'}}
  loaded: {env: {CELL_TIMES: '${ga_cells}/cells-base.txt', CELL_COUNT: '${counts}/loaded', CELL_CANNOT_RUN: '${loaded_skips}'}}
mitigation_axis: [base, loaded]
")
  if(case STREQUAL "skipped")
    set(expect OUTPUT "SKIPPED: cell loaded measured no trial \\(every trial skipped: .*\\), so the comparison of cells has no side there: not a pass")
  else()
    set(expect NOT_OUTPUT "measured no trial")
  endif()
  aorta_cli_test(gate_ambiguous.cells_unmeasured_${case} RC ${rc}
    CLEAN "${ga_unmeasured}/${case}" "${counts}"
    COMMAND sh -c "mkdir -p '${counts}' && exec \"$0\" \"$@\"" "${aorta}" sweep run
            --recipe "${ga_unmeasured}/${case}-$<CONFIG>.yaml" --output "${ga_unmeasured}/${case}"
            -- sh "${ga_fixture}/cell_or_environment.sh"
    ${expect})
endforeach()
