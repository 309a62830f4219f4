# Issue 23, item 2: `aorta check DIR` reads one capture. A directory holding several trials,
# several tests or two copies of one capture used to be summed silently (count 60 or 40 for 20
# launches) and PASS on the wrong numbers; now it is refused naming them, or summed on purpose
# with --aggregate. The layouts come from make_check_scope_inputs.cmake.
set(scope "${out}/check_scope")
set(add_kernel_20 "count(^add_kernel$) == 20")
aorta_cli_test(check_scope.make_inputs RC 0 FIXTURES_SETUP aorta_cli_check_scope
  COMMAND "${CMAKE_COMMAND}" "-DHATCHET=${h200}/vecadd_cupti/proton.hatchet" "-DROOT=${scope}"
          -P "${CMAKE_CURRENT_SOURCE_DIR}/make_check_scope_inputs.cmake")

aorta_cli_test(check_scope.trials_refused RC 64 FIXTURES_REQUIRED aorta_cli_check_scope
  COMMAND "${aorta}" check "${scope}/sweep" --check "${add_kernel_20}"
  OUTPUT "sweep holds the captures of 3 trials \\([^)]*sweep/trial_0, [^)]*sweep/trial_1, [^)]*sweep/trial_2\\)"
         "Check one trial, e.g. aorta check [^ ]*sweep/trial_0, or pass --aggregate"
  NOT_OUTPUT "check PASS")
aorta_cli_test(check_scope.tests_refused RC 64 FIXTURES_REQUIRED aorta_cli_check_scope
  COMMAND "${aorta}" check "${scope}/results" --check "${add_kernel_20}"
  OUTPUT "results holds the captures of 2 trials \\([^)]*results/test_a/trial_0, [^)]*results/test_b/trial_0\\)"
  NOT_OUTPUT "check PASS")
aorta_cli_test(check_scope.copies_refused RC 64 FIXTURES_REQUIRED aorta_cli_check_scope
  COMMAND "${aorta}" check "${scope}/copies" --check "${add_kernel_20}"
  OUTPUT "copies holds identical copies of one capture \\([^)]*copies/backup/proton\\.hatchet and [^)]*copies/proton\\.hatchet\\)"
  NOT_OUTPUT "check PASS")
aorta_cli_test(check_scope.one_trial RC 0 FIXTURES_REQUIRED aorta_cli_check_scope
  COMMAND "${aorta}" check "${scope}/sweep/trial_1" --check "${add_kernel_20}"
  OUTPUT "check PASS  count\\(\\^add_kernel\\$\\) == 20")
aorta_cli_test(check_scope.aggregate RC 0 FIXTURES_REQUIRED aorta_cli_check_scope
  COMMAND "${aorta}" check "${scope}/sweep" --aggregate --check "count(^add_kernel$) == 60"
  OUTPUT "note: --aggregate: summing the captures of 3 trials"
         "check PASS  count\\(\\^add_kernel\\$\\) == 60")
