# callgrind end to end: a program of ours with a known cost ratio, profiled by `aorta sweep run`.
add_executable(aorta_cli_hotspot hotspot.cpp)
target_link_libraries(aorta_cli_hotspot PRIVATE aorta_warnings)
# A sanitizer runtime cannot run under valgrind, so the payload stays uninstrumented in asan builds.
target_compile_options(aorta_cli_hotspot PRIVATE $<$<CXX_COMPILER_ID:GNU,Clang>:-fno-sanitize=all>)
target_link_options(aorta_cli_hotspot PRIVATE $<$<CXX_COMPILER_ID:GNU,Clang>:-fno-sanitize=all>)
set(hotspot "$<TARGET_FILE:aorta_cli_hotspot>")

find_program(AORTA_TEST_VALGRIND valgrind)
if(NOT AORTA_TEST_VALGRIND)
  message(STATUS "tests/cli: valgrind not found, the callgrind CLI tests are not registered")
  return()
endif()

# The recipe's check (Ir ratio >= 15) holds: expensive() is 20x cheap(). Two trials, so the report
# below has something to aggregate.
aorta_cli_test(callgrind.ratio_passes RC 0 FIXTURES_SETUP aorta_cli_callgrind_results
  CLEAN "${out}/callgrind"
  COMMAND "${aorta}" sweep run --recipe "${recipes}/callgrind_ratio.yaml"
          --output "${out}/callgrind" --ctest-measurements -- "${hotspot}"
  OUTPUT "check PASS  ir\\(expensive\\) / ir\\(cheap\\) >= 15  \\(actual 19\\.9"
         "2 trial\\(s\\): 2 passed, 0 failed, 0 skipped"
         "<CTestMeasurement type=\"numeric/double\" name=\"check: ir\\(expensive\\) / ir\\(cheap\\) &gt;= 15\">"
  FILES "${out}/callgrind/trial_1/callgrind"
  JSON "${out}/callgrind/trial_0/result.json::verdict=pass"
       "${out}/callgrind/trial_0/result.json::checks/0/passed=ON"
       "${out}/callgrind/trial_1/result.json::collectors/0=callgrind")

# The same run with a threshold above the real ratio: exit 1, and the message shows both sides.
aorta_cli_test(callgrind.ratio_fails RC 1
  CLEAN "${out}/callgrind_fail"
  COMMAND "${aorta}" sweep run --recipe "${recipes}/callgrind_ratio.yaml"
          --output "${out}/callgrind_fail" --check "ir(expensive) / ir(cheap) >= 25" -- "${hotspot}"
  OUTPUT "check FAIL  ir\\(expensive\\) / ir\\(cheap\\) >= 25"
         "expected: >= 25\n *actual: +19\\.9[0-9]* \\([0-9]+ / [0-9]+\\)"
         "trial 0 FAILED: check failed: ir\\(expensive\\) / ir\\(cheap\\) >= 25"
  JSON "${out}/callgrind_fail/trial_0/result.json::verdict=fail"
       "${out}/callgrind_fail/trial_0/result.json::checks/0/passed=ON"
       "${out}/callgrind_fail/trial_0/result.json::checks/1/passed=OFF")

# The same failing check registered as a user would: CTest sees the failure (WILL_FAIL).
add_test(NAME aorta.cli.callgrind.ratio_fails_will_fail
  COMMAND "${aorta}" sweep run --recipe "${recipes}/callgrind_ratio.yaml"
          --output "${out}/callgrind_will_fail" --check "ir(cheap) / ir(expensive) > 1"
          -- "${hotspot}")
set_tests_properties(aorta.cli.callgrind.ratio_fails_will_fail PROPERTIES
  LABELS cli TIMEOUT 120 WILL_FAIL TRUE)

# toggle_collect on a function that never runs: an empty capture fails, with its likely cause ...
aorta_cli_test(callgrind.empty_capture RC 1
  CLEAN "${out}/callgrind_empty"
  COMMAND "${aorta}" sweep run --recipe "${recipes}/callgrind_toggle_never.yaml"
          --output "${out}/callgrind_empty" -- "${hotspot}"
  OUTPUT "trial 0 FAILED: empty capture: callgrind recorded no function cost"
         "toggle_collect names a function that never ran"
  JSON "${out}/callgrind_empty/trial_0/result.json::verdict=fail")

# An empty capture with a failing check: `sweep run` and `aorta check` give the same verdict and
# the same reason, the empty capture (the check cannot make it a check failure).
aorta_cli_test(callgrind.empty_capture_failing_check RC 1
  FIXTURES_SETUP aorta_cli_callgrind_empty_check
  CLEAN "${out}/callgrind_empty_check"
  COMMAND "${aorta}" sweep run --recipe "${recipes}/callgrind_toggle_never.yaml"
          --output "${out}/callgrind_empty_check" --check "ir(main) > 0" -- "${hotspot}"
  JSON "${out}/callgrind_empty_check/trial_0/result.json::verdict=fail"
       "${out}/callgrind_empty_check/trial_0/result.json::checks/0/passed=OFF"
  FILE_REGEX "${out}/callgrind_empty_check/trial_0/result.json"
             "\"reason\": \"empty capture: callgrind recorded no function cost under [^\"]*/callgrind_empty_check/trial_0/callgrind\\.")
aorta_cli_test(check.empty_capture_failing_check_as_in_the_sweep RC 1
  FIXTURES_REQUIRED aorta_cli_callgrind_empty_check
  COMMAND "${aorta}" check --collector callgrind "${out}/callgrind_empty_check/trial_0/callgrind"
          --check "ir(main) > 0" --json
  JSON "stdout::verdict=fail" "stdout::checks/0/passed=OFF"
  OUTPUT "\"reason\": \"empty capture: callgrind recorded no function cost under [^\"]*/callgrind_empty_check/trial_0/callgrind\\.")

# ... passes where the recipe allows it ...
aorta_cli_test(callgrind.empty_capture_allowed RC 0
  CLEAN "${out}/callgrind_empty_allowed"
  COMMAND "${aorta}" sweep run --recipe "${recipes}/callgrind_toggle_never_allowed.yaml"
          --output "${out}/callgrind_empty_allowed" -- "${hotspot}"
  NOT_OUTPUT "empty capture"
  JSON "${out}/callgrind_empty_allowed/trial_0/result.json::verdict=pass")

# ... and is not empty once the function runs (so the toggle itself works).
aorta_cli_test(callgrind.toggle_collect_runs RC 0
  CLEAN "${out}/callgrind_toggle_runs"
  COMMAND "${aorta}" sweep run --recipe "${recipes}/callgrind_toggle_never.yaml"
          --output "${out}/callgrind_toggle_runs" --check "ir(never_called) > 0"
          -- "${hotspot}" --never
  OUTPUT "check PASS  ir\\(never_called\\) > 0"
  NOT_OUTPUT "callgrind_ir\\.expensive"
  JSON "${out}/callgrind_toggle_runs/trial_0/result.json::checks/0/passed=ON")

# aorta report over the two trials written above.
aorta_cli_test(report.callgrind RC 0 FIXTURES_REQUIRED aorta_cli_callgrind_results
  CLEAN "${out}/callgrind/perf.md" "${out}/callgrind/report.json" "${out}/callgrind/report.html"
  COMMAND "${aorta}" report "${out}/callgrind"
  OUTPUT "2 trials in 1 cell -> perf\\.md, report\\.json, report\\.html"
  FILES "${out}/callgrind/perf.md" "${out}/callgrind/report.html"
  FILE_REGEX "${out}/callgrind/report.html" "^<!DOCTYPE html>"
             "${out}/callgrind/perf.md" "callgrind_total_ir"
  JSON "${out}/callgrind/report.json::trials=2"
       "${out}/callgrind/report.json::cells/0/passed_count=2"
       "${out}/callgrind/report.json::cells/0/metrics_summary/callgrind_total_ir/n=2")

# aorta check reads the same capture after the fact.
aorta_cli_test(check.callgrind_after_the_run RC 0 FIXTURES_REQUIRED aorta_cli_callgrind_results
  COMMAND "${aorta}" check --collector callgrind "${out}/callgrind/trial_0/callgrind"
          --check "ir(expensive) / ir(cheap) >= 15" --json
  JSON "stdout::checks/0/passed=ON" "stdout::verdict=pass" "stdout::metrics/callgrind_total_ir=*")

# Parse once (issue 40): `validate`, `check --recipe` and `sweep run` read a recipe through one
# checked recipe, so a check that does not parse is refused by all three at its file:line with the
# same words (`check --recipe` used to parse the recipe's checks again, without the place).
set(bad_check_recipe "${recipes}/callgrind_bad_check.yaml")
set(bad_check_words "callgrind_bad_check\\.yaml:6:[0-9]+: check: ")
aorta_cli_test(recipe_parse_once.validate RC 64
  COMMAND "${aorta}" validate "${bad_check_recipe}"
  OUTPUT "${bad_check_words}")
aorta_cli_test(recipe_parse_once.check RC 64 FIXTURES_REQUIRED aorta_cli_callgrind_empty_check
  COMMAND "${aorta}" check --collector callgrind "${out}/callgrind_empty_check/trial_0/callgrind"
          --recipe "${bad_check_recipe}"
  OUTPUT "${bad_check_words}")
aorta_cli_test(recipe_parse_once.sweep RC 64
  CLEAN "${out}/recipe_parse_once"
  COMMAND "${aorta}" sweep run --recipe "${bad_check_recipe}" --output "${out}/recipe_parse_once"
          --dry-run -- "${hotspot}"
  OUTPUT "${bad_check_words}")
