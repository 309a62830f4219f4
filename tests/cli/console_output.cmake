# Issue 47: what the console shows of a run (docs/cli.md, "Output"). By default a banner, one
# progress line per trial, the verdict, then what it rests on; --quiet drops the progress lines,
# --verbose prints every trial's lines as they happen; <CTestMeasurement> tags only with
# --ctest-measurements (aorta_add_profiled_test passes it).
set(console_preamble "^aorta: (recipe |cell [^ ]+: mitigations |note: |\\[[0-9]+/[0-9]+\\] )")

# A failed trial keeps what a reader needs: the verdict names it first, then the command that ran
# and the end of the payload's output (which went to its logs only).
aorta_cli_test(console.failure_detail_after_verdict RC 1
  CLEAN "${out}/console_fail"
  COMMAND "${aorta}" sweep run --recipe "${recipes}/plain.yaml" --output "${out}/console_fail"
          -- sh -c "echo the-payload-said-this >&2 && exit 3"
  VERDICT_FIRST 5 "^aorta: FAIL: trial 0: payload exited 3" "${console_preamble}"
  OUTPUT "\naorta: trial 0: ran: sh -c "
         "aorta: trial 0: the payload's stderr\\.log \\([^\n]*stderr\\.log\\), last 1 line\\(s\\):\n  the-payload-said-this\n"
  NOT_OUTPUT "^the-payload-said-this")
aorta_cli_test(console.quiet_and_verbose_exclude RC 64
  COMMAND "${aorta}" sweep run --recipe "${recipes}/plain.yaml" --output "${out}/unused"
          --quiet --verbose -- /bin/true
  OUTPUT "--quiet excludes --verbose")
aorta_cli_test(console.verbose_echoes_and_ends_with_verdict RC 0
  CLEAN "${out}/console_verbose"
  COMMAND "${aorta}" sweep run --recipe "${recipes}/plain.yaml" --output "${out}/console_verbose"
          --verbose --trials 2 -- sh -c "echo echoed-by-the-payload"
  OUTPUT "aorta: trial 0: running: sh -c 'echo echoed-by-the-payload'\n" "\nechoed-by-the-payload\n"
         "aorta: trial 1: pass\n[^\n]*2 trial\\(s\\)[^\n]*\naorta: PASS: 2 trial\\(s\\): 2 passed, 0 failed, 0 skipped\n$"
  NOT_OUTPUT "\\[1/2\\]")
# --events-jsonl: the same run as one JSON line per event, read back by a script (events_jsonl.cmake).
add_test(NAME aorta.cli.console.events_jsonl_reads_back
  COMMAND ${CMAKE_COMMAND} -DAORTA=$<TARGET_FILE:aorta> -DRECIPE=${recipes}/plain.yaml
    -DOUT=${out}/events_jsonl -P ${CMAKE_CURRENT_SOURCE_DIR}/events_jsonl.cmake)
set_tests_properties(aorta.cli.console.events_jsonl_reads_back PROPERTIES LABELS cli TIMEOUT 120)
aorta_cli_test(console.events_jsonl_refuses_a_directory RC 64
  COMMAND "${aorta}" sweep run --recipe "${recipes}/plain.yaml" --output "${out}/events_refused"
          --events-jsonl "${recipes}" -- /bin/true
  OUTPUT "--events-jsonl: [^\n]*recipes exists and is not a regular file. Fix: ")

if(NOT AORTA_TEST_VALGRIND)
  return()
endif()
# The issue's A/B: 20 trials a cell printed 2,136 lines, 324 of them XML, the verdict last.
aorta_cli_test(console.ab_20_trials_verdict_first RC 0 TIMEOUT 300
  CLEAN "${out}/console_ab"
  COMMAND "${aorta}" ab --recipe "${recipes}/callgrind_plain.yaml" --output "${out}/console_ab"
          --base "${cells_work}" --head "${cells_work}" --trials 20 --seed 3
  VERDICT_FIRST 60 "^aorta: PASS: 40 trial\\(s\\): 40 passed, 0 failed, 0 skipped. confound against cell base: 0 SLOWER, 0 UNKNOWN of [0-9]+ row\\(s\\)$"
                "${console_preamble}"
  OUTPUT "aorta: \\[40/40\\] cell (base|head) trial 19: pass \\([0-9.]+ s\\)\n"
         "\naorta: confound verdicts against cell base"
  NOT_OUTPUT "<CTestMeasurement" "no checks ran" "cells_work: " "running: ")
aorta_cli_test(console.ab_quiet RC 0 TIMEOUT 120
  CLEAN "${out}/console_ab_quiet"
  COMMAND "${aorta}" ab --recipe "${recipes}/callgrind_plain.yaml" --output "${out}/console_ab_quiet"
          --base "${cells_work}" --head "${cells_work}" --trials 2 --seed 3 --quiet
  VERDICT_FIRST 3 "^aorta: PASS: 4 trial\\(s\\)" "^aorta: (recipe |cell [^ ]+: mitigations )"
  NOT_OUTPUT "\\[1/4\\]" "<CTestMeasurement")
# A failing gated test (the tutorial's shape): the verdict names the regression before the detail,
# the gate table follows it.
aorta_cli_test(console.failing_gate_verdict_first RC 1 FIXTURES_REQUIRED aorta_gate_base
  CLEAN "${gate_out}/console_slow"
  COMMAND "${aorta}" sweep run --recipe "${gate_recipe}" --output "${gate_out}/console_slow/hotspot"
          --baseline "${gate_base}" --trials 5 -- "${gate_payload}" 9011 32
  VERDICT_FIRST 60 "^aorta: FAIL: trial 4: regression against the baseline \\(5 trial\\(s\\): 4 passed, 1 failed, 0 skipped\\)$"
                "${console_preamble}"
  OUTPUT "\naorta: gate against [^\n]*\ntest +quantity" "gate FAILED: a confident regression"
  NOT_OUTPUT "<CTestMeasurement" "no checks")
