# The sanitizer collector (compute-sanitizer) through the CLI: `aorta check` on the real H200
# reports (tests/fixtures/sanitizer/h200) and on hostile ones derived from them
# (tests/fixtures/sanitizer/hostile), and `sweep run`'s refusals, skip and dry run. The run itself
# needs the GPU: examples/profiling/sanitizer/cuda-oob on the GPU lane.
set(sanitizer_h200 "${PROJECT_SOURCE_DIR}/tests/fixtures/sanitizer/h200")
set(sanitizer_hostile "${PROJECT_SOURCE_DIR}/tests/fixtures/sanitizer/hostile")
set(oob_access "Invalid __global__ write of size 4 bytes in <unnamed>::fill_kernel\\(float \\*, int, int\\) at oob\\.cu:36")

# --- aorta check: every tool's clean report passes, the planted ones fail naming the kernel ------
foreach(tool IN ITEMS memcheck racecheck initcheck synccheck)
  aorta_cli_test(sanitizer.${tool}_clean_passes RC 0
    COMMAND "${aorta}" check --collector sanitizer "${sanitizer_h200}/${tool}-clean.log"
            --check "sanitizer_error_count == 0" --check "count_errors(.) == 0"
    OUTPUT "check PASS  sanitizer_error_count == 0  \\(actual 0\\)"
    NOT_OUTPUT "empty capture")
endforeach()

aorta_cli_test(sanitizer.planted_oob_fails_naming_kernel_and_access RC 1
  COMMAND "${aorta}" check --collector sanitizer "${sanitizer_h200}/memcheck-oob-padding.log"
          --check "sanitizer_error_count == 0"
  OUTPUT "check FAIL  sanitizer_error_count == 0" "actual: +3" "${oob_access}"
         "by thread \\(255,0,0\\) in block \\(15,0,0\\); Access to 0x7f7906804000 is out of bounds"
         "sanitizer_errors\\.invalid_global_write_of_size_4_bytes +1")

aorta_cli_test(sanitizer.planted_oob_count_errors_by_kernel RC 1
  COMMAND "${aorta}" check --collector sanitizer "${sanitizer_h200}/memcheck-oob-padding.log"
          --check "count_errors(fill_kernel) == 0" --check "count_errors(shift_kernel) == 0"
  OUTPUT "check FAIL  count_errors\\(fill_kernel\\) == 0" "actual: +1"
         "check PASS  count_errors\\(shift_kernel\\) == 0")

aorta_cli_test(sanitizer.planted_race_fails_naming_kernel RC 1
  COMMAND "${aorta}" check --collector sanitizer "${sanitizer_h200}/racecheck-race.log"
          --check "count_errors(shift_kernel) == 0"
  OUTPUT "Race between Write access and Read access in <unnamed>::shift_kernel\\(const float \\*, float \\*, int, int\\) at oob\\.cu:42"
         "oob\\.cu:45 \\[16384 hazards\\]")

aorta_cli_test(sanitizer.planted_leak_fails RC 1
  COMMAND "${aorta}" check --collector sanitizer "${sanitizer_h200}/memcheck-leak.log"
          --check "sanitizer_errors.leak == 0"
  OUTPUT "check FAIL  sanitizer_errors\\.leak == 0" "Leaked 16,384 bytes")

# --- reports aorta must not pass: each an error naming the file and the fix ---------------------
aorta_cli_test(sanitizer.truncated_report_is_an_error RC 1
  COMMAND "${aorta}" check --collector sanitizer "${sanitizer_hostile}/truncated.log"
          --check "sanitizer_error_count == 0"
  OUTPUT "truncated\\.log: compute-sanitizer report ends without compute-sanitizer's summary line"
         "Fix: rerun the trial"
  NOT_OUTPUT "check PASS")
aorta_cli_test(sanitizer.empty_report_is_an_error RC 1
  COMMAND "${aorta}" check --collector sanitizer "${sanitizer_hostile}/empty.log"
          --check "sanitizer_error_count == 0"
  OUTPUT "empty\\.log: compute-sanitizer report is empty" NOT_OUTPUT "check PASS")
aorta_cli_test(sanitizer.unknown_format_is_an_error RC 1
  COMMAND "${aorta}" check --collector sanitizer "${sanitizer_hostile}/cuda-memcheck-banner.log"
          --check "sanitizer_error_count == 0"
  OUTPUT "cuda-memcheck-banner\\.log: not a compute-sanitizer text report" NOT_OUTPUT "check PASS")
aorta_cli_test(sanitizer.unknown_summary_is_an_error RC 1
  COMMAND "${aorta}" check --collector sanitizer "${sanitizer_hostile}/unknown-summary.log"
          --check "sanitizer_error_count == 0"
  OUTPUT "unknown-summary\\.log: compute-sanitizer summary line 'ERROR SUMMARY: errors=3' is not in a format this reader knows"
  NOT_OUTPUT "check PASS")
aorta_cli_test(sanitizer.xml_report_is_an_error RC 1
  COMMAND "${aorta}" check --collector sanitizer "${sanitizer_h200}/memcheck-clean.xml"
          --check "sanitizer_error_count == 0"
  OUTPUT "memcheck-clean\\.xml: not a compute-sanitizer text report.*does not read --xml --save"
  NOT_OUTPUT "check PASS")

# --- sweep run: a bad option, an absent tool, the dry run's wrap ----------------------------
aorta_cli_test(sanitizer.unknown_tool_is_a_usage_error RC 64
  COMMAND "${aorta}" sweep run --recipe "${recipes}/bad/sanitizer_unknown_tool.yaml"
          --output "${out}/unused" --dry-run -- /bin/true
  OUTPUT "sanitizer\\.tool: 'asan' is not a compute-sanitizer tool; allowed: memcheck, racecheck, initcheck, synccheck")

aorta_cli_test(sanitizer.absent_tool_skips_with_the_reason RC 77
  CLEAN "${out}/sanitizer.absent"
  ENV "COMPUTE_SANITIZER_BIN=/nonexistent/compute-sanitizer"
  COMMAND "${aorta}" sweep run --recipe "${recipes}/sanitizer/memcheck.yaml"
          --output "${out}/sanitizer.absent" -- /bin/true
  # Without a GPU the skip names that first; with one, the missing tool (unit test
  # collectors_sanitizer.sanitizer_collector.absent_tool_is_the_unavailable_reason).
  OUTPUT "SKIPPED: sanitizer (needs a GPU|collector unavailable: sanitizer: \\$COMPUTE_SANITIZER_BIN=/nonexistent/compute-sanitizer is not an executable file)")

aorta_cli_test(sanitizer.dry_run_names_the_missing_tool RC 0
  ENV "COMPUTE_SANITIZER_BIN=/nonexistent/compute-sanitizer"
  COMMAND "${aorta}" sweep run --recipe "${recipes}/sanitizer/memcheck.yaml"
          --output "${out}/unused" --dry-run -- /bin/true
  OUTPUT "'<compute-sanitizer: not installed>' --tool memcheck --error-exitcode 0 --target-processes all --padding 32 --log-file [^ ]*/sanitizer/sanitizer\\.log /bin/true")

# --- errors fail the trial by themselves, not only through a check (fail_on_errors) --------------
aorta_cli_test(sanitizer.errors_fail_without_a_check RC 1
  COMMAND "${aorta}" check --collector sanitizer "${sanitizer_h200}/memcheck-oob-padding.log"
  OUTPUT "aorta: fail: compute-sanitizer \\(memcheck\\) reported [0-9]+ error\\(s\\)\\; the first: ${oob_access}"
         "fail_on_errors: false")
aorta_cli_test(sanitizer.clean_report_passes_without_a_check RC 0
  COMMAND "${aorta}" check --collector sanitizer "${sanitizer_h200}/memcheck-clean.log"
  NOT_OUTPUT "reported [0-9]+ error")
aorta_cli_test(sanitizer.fail_on_errors_false_leaves_it_to_the_checks RC 0
  COMMAND "${aorta}" check --collector sanitizer "${sanitizer_h200}/memcheck-oob-padding.log"
          --recipe "${recipes}/sanitizer_checks_only.yaml"
          --check "count_errors(fill_kernel) == 1" --check "count_errors(shift_kernel) == 0"
  OUTPUT "check PASS  count_errors\\(fill_kernel\\) == 1")
aorta_cli_test(sanitizer.fail_on_errors_not_a_boolean RC 64
  COMMAND "${aorta}" validate "${recipes}/sanitizer_bad_fail_on_errors.yaml"
  OUTPUT "fail_on_errors: 'maybe' is not a boolean")

# --- without --collector: the sanitizer recognises its own logs (collectors' recognises()) -------
aorta_cli_test(sanitizer.detected_planted_fails RC 1
  COMMAND "${aorta}" check "${sanitizer_h200}/memcheck-oob-padding.log"
  OUTPUT "holds a compute-sanitizer log: reading it with --collector sanitizer"
         "compute-sanitizer \\(memcheck\\) reported" "${oob_access}"
  NOT_OUTPUT "check PASS")
aorta_cli_test(sanitizer.detected_clean_passes RC 0
  COMMAND "${aorta}" check "${sanitizer_h200}/memcheck-clean.log"
          --check "sanitizer_error_count == 0"
  OUTPUT "holds a compute-sanitizer log: reading it with --collector sanitizer"
         "check PASS  sanitizer_error_count == 0")
