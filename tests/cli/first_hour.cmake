# Issue 11, "the first hour of a new user": one test per row of its table that concerns the CLI
# (the CMake rows are in tests/cmake/, the names in tests/unit/display_names_test.cpp).

# Usage errors name the subcommand and its --help; the `sweep run` payload hint stays there.
aorta_cli_test(first_hour.view_bogus_option RC 64
  COMMAND "${aorta}" view "${h200}/pipeline_cupti/proton.hatchet" --bogus
  OUTPUT "aorta: error: view: [^\n]*--bogus[^\n]*see 'aorta view --help'"
  NOT_OUTPUT "missing '--'")
aorta_cli_test(first_hour.report_bogus_option RC 64
  COMMAND "${aorta}" report "${out}/unused" --bogus
  OUTPUT "aorta: error: report: [^\n]*--bogus[^\n]*see 'aorta report --help'"
  NOT_OUTPUT "missing '--'")
aorta_cli_test(first_hour.sweep_keeps_separator_hint RC 64
  COMMAND "${aorta}" sweep run --recipe "${recipes}/plain.yaml" --output "${out}/unused" /bin/true
  OUTPUT "missing '--' separator before the command")
# Issue 23, item 8: an unknown command is named, with the list, and --help does not hide it.
aorta_cli_test(first_hour.unknown_command RC 64
  COMMAND "${aorta}" bogus
  OUTPUT "aorta: error: 'bogus' is not an aorta command\\. The commands are sweep, [^\n]*check"
  NOT_OUTPUT "A subcommand is required")
aorta_cli_test(first_hour.unknown_command_help RC 64
  COMMAND "${aorta}" nosuch --help
  OUTPUT "'nosuch' is not an aorta command")
aorta_cli_test(first_hour.view_help RC 0
  COMMAND "${aorta}" view --help
  OUTPUT "--depth" "time/%" "--sort")

# Formats are recognised before any parser runs.
aorta_cli_test(first_hour.view_ncu_csv RC 64
  COMMAND "${aorta}" view "${h200}/ncu_vecadd/ncu.csv"
  OUTPUT "ncu\\.csv: not a Proton output: it looks like an ncu CSV; read it with aorta check")
aorta_cli_test(first_hour.view_directory_without_hatchet RC 64
  COMMAND "${aorta}" view "${h200}/ncu_vecadd"
  OUTPUT "ncu_vecadd: a directory without any \\.hatchet, \\.hatchet_msgpack or \\.chrome_trace file \\(it holds ncu captures\\)")
aorta_cli_test(first_hour.view_directory RC 0
  COMMAND "${aorta}" view "${h200}/pipeline_cupti"
  OUTPUT "^time/ms of [^\n]*/pipeline_cupti/proton\\.hatchet\n")
aorta_cli_test(first_hour.check_detects_collector RC 0
  COMMAND "${aorta}" check "${h200}/vecadd_cupti/proton.hatchet"
          --check "count(^add_kernel$) == 20"
  OUTPUT "holds a Proton capture \\(hatchet, hatchet_msgpack or chrome trace\\): reading it with --collector proton"
         "check PASS  count\\(\\^add_kernel\\$\\) == 20")
aorta_cli_test(first_hour.check_detects_ncu_directory RC 0
  COMMAND "${aorta}" check "${h200}/ncu_vecadd" --check "ncu_kernel_count == 9"
  OUTPUT "holds an ncu CSV: reading it with --collector ncu")
aorta_cli_test(first_hour.check_wrong_collector RC 64
  COMMAND "${aorta}" check --collector ncu "${h200}/vecadd_cupti/proton.hatchet"
  OUTPUT "proton\\.hatchet: not an ncu CSV: it looks like a Proton capture \\(hatchet, hatchet_msgpack or chrome trace\\); use --collector proton")

# view: several metrics, time/%, sorting by name, a depth limit.
# Issue 23, item 8: C++ kernel names are printed demangled; --mangled keeps them as captured.
aorta_cli_test(first_hour.view_demangled RC 0
  COMMAND "${aorta}" view "${h200}/vecadd_cupti/proton.hatchet"
  OUTPUT "at::native::reduce_kernel<512, 1, at::native::ReduceOp<float"
  NOT_OUTPUT "_ZN2at6native")
aorta_cli_test(first_hour.view_mangled RC 0
  COMMAND "${aorta}" view --mangled "${h200}/vecadd_cupti/proton.hatchet"
  OUTPUT "_ZN2at6native13reduce_kernelILi512E")
aorta_cli_test(first_hour.view_metrics_sort RC 0
  COMMAND "${aorta}" view -m time/ns,count,time/% --sort name "${h200}/pipeline_cupti/proton.hatchet"
  OUTPUT "time/ns +count +time/% name\n +422175 +60 +100\\.00% ROOT\n"
         "bias_gelu_kernel\n[^\n]*row_sum_kernel\n[^\n]*scale_kernel\n")
aorta_cli_test(first_hour.view_depth RC 0
  COMMAND "${aorta}" view -m cycles -d 1 "${h200}/hotspot_instrumentation/proton.hatchet"
  OUTPUT "4809313 unbalanced_kernel \\(\\+2 below\\)\n$")

# No checks: said in the output; --require-checks (AORTA_REQUIRE_CHECKS) makes it an error.
aorta_cli_test(first_hour.no_checks_note RC 0
  CLEAN "${out}/no_checks"
  COMMAND "${aorta}" sweep run --recipe "${recipes}/plain.yaml" --output "${out}/no_checks"
          -- /bin/true
  OUTPUT "aorta: note: no checks \\(none in the recipe, no --check, no gate\\): only the payload's exit status is judged")
aorta_cli_test(first_hour.require_checks RC 64
  COMMAND "${aorta}" sweep run --recipe "${recipes}/plain.yaml" --output "${out}/unused"
          --require-checks -- /bin/true
  OUTPUT "plain\\.yaml: no checks: the recipe has no `check:` and no --check was given"
  NOT_OUTPUT "trial 0: running")
# Issue 23, item 8: a test refused at run time (64) is in the report as an error, not missing;
# nothing launched, so its record is <output>/result.json, not a trial's.
aorta_cli_test(first_hour.refusal_recorded RC 64 FIXTURES_SETUP aorta_cli_refused
  CLEAN "${out}/refused"
  COMMAND "${aorta}" sweep run --recipe "${recipes}/plain.yaml" --output "${out}/refused/t"
          --require-checks -- /bin/true
  OUTPUT "no checks: the recipe has no `check:`"
  JSON "${out}/refused/t/result.json::verdict=error"
  NO_FILES "${out}/refused/t/trial_0")
aorta_cli_test(first_hour.refusal_reported RC 0 FIXTURES_REQUIRED aorta_cli_refused
  COMMAND "${aorta}" report "${out}/refused"
  OUTPUT "  t: 0 pass, 0 fail, 0 skip, 1 error -- error: refused \\(exit 64\\): [^\n]*no checks"
  FILE_REGEX "${out}/refused/report.html" "<span class=\"fail\">1 failed</span>")
# Issue 23, item 3: the regression gate counts as a check. A test with only TRIALS and BASELINE
# (docs/regression-gate.md) used to exit 64 "no checks" under AORTA_REQUIRE_CHECKS, so the gate
# never ran; here it runs and skips for the missing baseline, naming the fix.
aorta_cli_test(first_hour.require_checks_gate_counts RC 77
  CLEAN "${out}/require_checks_gate"
  COMMAND "${aorta}" sweep run --recipe "${recipes}/plain.yaml" --output "${out}/require_checks_gate"
          --trials 2 --baseline "${out}/no_baselines_here" --test-name gated --require-checks
          -- /bin/true
  OUTPUT "no baseline for test 'gated'"
  NOT_OUTPUT "no checks: the recipe has no")

# CMake passes a little less than the CTest TIMEOUT as --timeout: aorta stops the payload and
# records it, where CTest would kill aorta and leave no result.json.
aorta_cli_test(first_hour.timeout_recorded RC 1
  CLEAN "${out}/timeout_flag"
  COMMAND "${aorta}" sweep run --recipe "${recipes}/plain.yaml" --output "${out}/timeout_flag"
          --timeout 0.5 -- /bin/sleep 30
  # Issue 23, item 7: the limit's origin is the command line, not "(: 0.5 from r.yaml)".
  OUTPUT "timed out after [0-9.]+ s \\(--timeout 0\\.5 from the command line"
  NOT_OUTPUT "\\(: "
  JSON "${out}/timeout_flag/trial_0/result.json::timed_out=ON"
       "${out}/timeout_flag/trial_0/result.json::verdict=fail")

# A recipe that cannot wrap the command is refused (64) on a GPU-less host too, as --dry-run
# refuses it, instead of being skipped (77) because there is no GPU.
aorta_cli_test(first_hour.proton_cli_not_python_without_dry_run RC 64
  COMMAND "${aorta}" sweep run --recipe "${recipes}/proton_cli.yaml" --output "${out}/unused"
          -- /bin/true
  OUTPUT "mode: cli needs a Python script launch.*got '/bin/true'"
  NOT_OUTPUT "SKIPPED")

# Reports: nothing ran is "0 trials", not a second failure ...
aorta_cli_test(first_hour.report_nothing_ran RC 0
  CLEAN "${out}/nothing_ran"
  COMMAND "${aorta}" report "${out}/nothing_ran"
  OUTPUT "^report: 0 trials in 0 cells -> perf\\.md, report\\.json, report\\.html"
  FILE_REGEX "${out}/nothing_ran/report.html" "<strong>0 trials\\.</strong>")
# Issue 23, item 8: a mistyped path is refused, not created as a tree of empty directories.
aorta_cli_test(first_hour.report_missing_parent RC 64
  CLEAN "${out}/report_typo"
  COMMAND "${aorta}" report "${out}/report_typo/x/y"
  OUTPUT "report: [^\n]*report_typo/x/y does not exist, nor does its parent [^\n]*report_typo/x"
  NO_FILES "${out}/report_typo")
# ... and results older than the run's start are stale, listed with their date, not aggregated.
add_test(NAME aorta.cli.first_hour.report_stale
  COMMAND ${CMAKE_COMMAND} -DAORTA=${aorta} -DWORK=${out}/stale_report
    -DOLD_RESULT=${PROJECT_SOURCE_DIR}/tests/fixtures/h200-examples/aorta-results/ncu.cuda-gemm/trial_0/result.json
    -DRECIPE=${recipes}/plain.yaml
    -P ${CMAKE_CURRENT_SOURCE_DIR}/stale_report.cmake)
set_tests_properties(aorta.cli.first_hour.report_stale PROPERTIES LABELS cli TIMEOUT 60)

if(NOT AORTA_TEST_VALGRIND)
  return()
endif()
# Verdict and check lines first (within the 1024 bytes JUnit keeps), then only the measurements
# the checks read, each check's value among them (as CTest runs it: --ctest-measurements).
aorta_cli_test(first_hour.callgrind_verdict_first RC 0
  CLEAN "${out}/callgrind_first"
  COMMAND "${aorta}" sweep run --recipe "${recipes}/callgrind_ratio.yaml"
          --output "${out}/callgrind_first" --ctest-measurements -- "${hotspot}"
  HEAD 1024 "aorta: check PASS  ir\\(expensive\\) / ir\\(cheap\\) >= 15"
  OUTPUT "^[^<]*aorta: check PASS[^\n]*\naorta: trial 1: pass\ncallgrind_ir\\.expensive\\(\\) "
         "<CTestMeasurement type=\"numeric/double\" name=\"check: ir\\(expensive\\) / ir\\(cheap\\) &gt;= 15\">19\\.99"
         "name=\"callgrind_ir\\.expensive\\(\\)\">[0-9]+<"
  NOT_OUTPUT "name=\"callgrind_total_ir\"" "callgrind_ir\\._dl_")
aorta_cli_test(first_hour.callgrind_measure_chosen RC 0
  CLEAN "${out}/callgrind_measure"
  COMMAND "${aorta}" sweep run --recipe "${recipes}/callgrind_ratio.yaml"
          --output "${out}/callgrind_measure" --measure callgrind_total_ir --ctest-measurements
          -- "${hotspot}"
  OUTPUT "name=\"callgrind_total_ir\">[0-9]+<")
# Ranked by cost, the program's own functions first, the loader and libc folded.
aorta_cli_test(first_hour.callgrind_ranked_folded RC 0 FIXTURES_SETUP aorta_cli_callgrind_plain
  CLEAN "${out}/callgrind_plain"
  COMMAND "${aorta}" sweep run --recipe "${recipes}/callgrind_plain.yaml"
          --output "${out}/callgrind_plain" -- "${hotspot}"
  OUTPUT "callgrind_total_ir +[0-9]+\ncallgrind_ir\\.main +[0-9]+\ncallgrind_self_ir\\.main +[0-9]+\ncallgrind_ir\\.expensive\\(\\)"
         "\\(\\+[0-9]+ loader/libc function\\(s\\) folded: "
  NOT_OUTPUT "\ncallgrind_ir\\._dl_" "name=\"callgrind_ir\\._dl_")
aorta_cli_test(first_hour.callgrind_report_folded RC 0 FIXTURES_REQUIRED aorta_cli_callgrind_plain
  COMMAND "${aorta}" report "${out}/callgrind_plain"
  FILE_REGEX "${out}/callgrind_plain/perf.md"
             "\\| `callgrind_total_ir` \\|[^\n]*\n\\| `callgrind_ir\\.main` \\|"
             "${out}/callgrind_plain/perf.md" "loader/libc function\\(s\\) folded: `"
             "${out}/callgrind_plain/report.html" "Inclusive Ir per function[^\n]*\n<svg class=\"chart\"")
# Issue 23, item 7: the hint of an ambiguous ir() names the program's own function (`main`, not
# the loader's `dl_main` nor `(below main)`), and escapes a name with regex metacharacters so the
# suggested pattern matches that function; the last test checks the suggestion as printed.
aorta_cli_test(first_hour.ir_hint_own_function RC 1 FIXTURES_REQUIRED aorta_cli_callgrind_plain
  COMMAND "${aorta}" check "${out}/callgrind_plain/trial_0" --check "ir(main) > 0"
  OUTPUT "ir\\(main\\) matches [0-9]+ functions: [^\n]*; anchor it, e\\.g\\. ir\\(\\^main\\$\\)\n")
aorta_cli_test(first_hour.ir_hint_escaped RC 1 FIXTURES_REQUIRED aorta_cli_callgrind_plain
  COMMAND "${aorta}" check "${out}/callgrind_plain/trial_0" --check "ir(below main) > 0"
  OUTPUT "anchor it, e\\.g\\. ir\\(\\^.\\(below main.\\) .\\[.\\?.\\?.\\? in <program>.\\]\\$\\)\n")
aorta_cli_test(first_hour.ir_hint_pattern_matches RC 0 FIXTURES_REQUIRED aorta_cli_callgrind_plain
  COMMAND "${aorta}" check "${out}/callgrind_plain/trial_0"
          --check "ir(^\\(below main\\) \\[\\?\\?\\? in <program>\\]$) > 0"
  OUTPUT "check PASS  ir\\(\\^\\\\\\(below main")
