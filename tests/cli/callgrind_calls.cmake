# calls() and self_ir() end to end (issue 23, item 8): the callgrind example payload
# (examples/profiling/callgrind/cpu-hotspot, built as aorta_cli_gate_hotspot in gate.cmake) calls
# cheap() and expensive() once each and reference_rounds() twice, and expensive() does STEPS (32)
# times the work of cheap() in its own body.
if(NOT AORTA_TEST_VALGRIND)
  return()
endif()
set(calls_payload "$<TARGET_FILE:aorta_cli_gate_hotspot>")
set(calls_recipe "${PROJECT_SOURCE_DIR}/examples/profiling/callgrind/cpu-hotspot/recipe.yaml")

aorta_cli_test(callgrind.calls_and_self_ir_pass RC 0
  CLEAN "${out}/callgrind_calls"
  COMMAND "${aorta}" sweep run --recipe "${calls_recipe}" --output "${out}/callgrind_calls"
          --check "calls(^reference_rounds) == 2" --check "calls(^cheap) == 1"
          --check "self_ir(^expensive) / self_ir(^cheap) >= 24"
          -- "${calls_payload}" 8192 32
  OUTPUT "check PASS  calls\\(\\^reference_rounds\\) == 2  \\(actual 2\\)"
         "check PASS  calls\\(\\^cheap\\) == 1  \\(actual 1\\)"
         "check PASS  self_ir\\(\\^expensive\\) / self_ir\\(\\^cheap\\) >= 24  \\(actual 3[0-9]\\."
  JSON "${out}/callgrind_calls/trial_0/result.json::verdict=pass"
       "${out}/callgrind_calls/trial_0/result.json::checks/1/actual=2")

# A wrong call count fails the trial (exit 1) and lists the hottest functions with their calls.
aorta_cli_test(callgrind.calls_fails RC 1
  CLEAN "${out}/callgrind_calls_fail"
  COMMAND "${aorta}" sweep run --recipe "${calls_recipe}" --output "${out}/callgrind_calls_fail"
          --check "calls(^reference_rounds) == 3" -- "${calls_payload}" 8192 32
  OUTPUT "check FAIL  calls\\(\\^reference_rounds\\) == 3"
         "expected: == 3\n *actual: +2\n"
         "\n    main  Ir [0-9]+  self [0-9]+  calls 1\n"
  JSON "${out}/callgrind_calls_fail/trial_0/result.json::verdict=fail")

# A misspelt function is a failed check naming the closest ones, never a count of 0 that passes.
aorta_cli_test(callgrind.calls_misspelt_fails RC 1
  CLEAN "${out}/callgrind_calls_misspelt"
  COMMAND "${aorta}" sweep run --recipe "${calls_recipe}"
          --output "${out}/callgrind_calls_misspelt" --check "calls(reference_round5) < 10"
          -- "${calls_payload}" 8192 32
  OUTPUT "no function of the callgrind capture matches 'reference_round5'; closest: reference_rounds\\("
  JSON "${out}/callgrind_calls_misspelt/trial_0/result.json::verdict=fail")

# calls() cannot be gated yet: refused when the recipe loads (64), naming the fix.
aorta_cli_test(callgrind.calls_baseline_refused RC 64
  COMMAND "${aorta}" sweep run --recipe "${calls_recipe}" --output "${out}/callgrind_calls_gate"
          --check "calls(^cheap) <= baseline" -- "${calls_payload}" 8192 32
  OUTPUT "calls\\(\\) cannot be gated yet")
