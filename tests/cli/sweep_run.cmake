# `aorta sweep run` on small real commands, no collector: the exit status alone decides.

aorta_cli_test(run.pass RC 0
  CLEAN "${out}/run.pass"
  COMMAND "${aorta}" sweep run --recipe "${recipes}/plain.yaml" --output "${out}/run.pass"
          --verbose -- printf "hello %s\\n" aorta
  OUTPUT "hello aorta" "1 trial\\(s\\): 1 passed, 0 failed, 0 skipped"
  FILES "${out}/run.pass/trial_0/command.json" "${out}/run.pass/trial_0/stdout.log"
        "${out}/run.pass/trial_0/stderr.log" "${out}/run.pass/trial_0/result.json"
  NO_FILES "${out}/run.pass/trial_1"
  FILE_REGEX "${out}/run.pass/trial_0/stdout.log" "^hello aorta\n$"
  JSON "${out}/run.pass/trial_0/result.json::verdict=pass"
       "${out}/run.pass/trial_0/result.json::exit_status=0"
       "${out}/run.pass/trial_0/result.json::command/0=printf"
       "${out}/run.pass/trial_0/command.json::argv/2=aorta")

aorta_cli_test(run.trials3 RC 0
  CLEAN "${out}/run.trials3"
  COMMAND "${aorta}" sweep run --recipe "${recipes}/trials3.yaml" --output "${out}/run.trials3"
          -- /bin/true
  OUTPUT "3 trial\\(s\\): 3 passed, 0 failed, 0 skipped"
  FILES "${out}/run.trials3/trial_0/result.json" "${out}/run.trials3/trial_1/result.json"
        "${out}/run.trials3/trial_2/result.json"
  NO_FILES "${out}/run.trials3/trial_3"
  JSON "${out}/run.trials3/trial_2/result.json::trial_index=2"
       "${out}/run.trials3/trial_2/result.json::verdict=pass")

aorta_cli_test(run.payload_fails RC 1
  CLEAN "${out}/run.payload_fails"
  COMMAND "${aorta}" sweep run --recipe "${recipes}/plain.yaml" --output "${out}/run.payload_fails"
          -- /bin/sh -c "exit 5"
  OUTPUT "trial 0 FAILED: payload exited 5 \\(expected 0\\)"
  JSON "${out}/run.payload_fails/trial_0/result.json::verdict=fail"
       "${out}/run.payload_fails/trial_0/result.json::exit_status=5")

aorta_cli_test(run.expect_exit_met RC 0
  CLEAN "${out}/run.expect_exit_met"
  COMMAND "${aorta}" sweep run --recipe "${recipes}/expect_exit3.yaml"
          --output "${out}/run.expect_exit_met" -- /bin/sh -c "exit 3"
  JSON "${out}/run.expect_exit_met/trial_0/result.json::verdict=pass")

# expect_exit 3 and the payload succeeds: that is not what was expected.
aorta_cli_test(run.expect_exit_missed RC 1
  CLEAN "${out}/run.expect_exit_missed"
  COMMAND "${aorta}" sweep run --recipe "${recipes}/expect_exit3.yaml"
          --output "${out}/run.expect_exit_missed" -- /bin/true
  OUTPUT "payload exited 0 \\(expected 3\\)")

aorta_cli_test(run.environment_code_skips RC 77
  CLEAN "${out}/run.environment_code_skips"
  COMMAND "${aorta}" sweep run --recipe "${recipes}/environment_code.yaml"
          --output "${out}/run.environment_code_skips"
          -- /bin/sh -c "echo 'first line' >&2 && echo 'no GPU visible, refusing to run' >&2 && exit 2"
  OUTPUT "trial 0 SKIPPED: payload exited 2, its environment exit code"
         "payload: \"no GPU visible, refusing to run\""
         "0 passed, 0 failed, 1 skipped"
  JSON "${out}/run.environment_code_skips/trial_0/result.json::verdict=skip")

aorta_cli_test(run.environment_code_required RC 1
  CLEAN "${out}/run.environment_code_required"
  COMMAND "${aorta}" sweep run --recipe "${recipes}/environment_code.yaml"
          --output "${out}/run.environment_code_required" --require-profiler
          -- /bin/sh -c "exit 2"
  OUTPUT "a skip is a failure under --require-profiler"
  JSON "${out}/run.environment_code_required/trial_0/result.json::verdict=fail")

# Any other exit code stays a failure under environment_exit_codes.
aorta_cli_test(run.environment_code_other_exit RC 1
  CLEAN "${out}/run.environment_code_other_exit"
  COMMAND "${aorta}" sweep run --recipe "${recipes}/environment_code.yaml"
          --output "${out}/run.environment_code_other_exit" -- /bin/sh -c "exit 3"
  OUTPUT "payload exited 3 \\(expected 0\\)")

# Exit 2 is also what a command's own usage error gives (Python's missing script, argparse): that
# is the test's mistake and must fail, not skip.
aorta_cli_test(run.environment_code_missing_script_fails RC 1
  CLEAN "${out}/run.environment_code_missing_script_fails"
  COMMAND "${aorta}" sweep run --recipe "${recipes}/environment_code.yaml"
          --output "${out}/run.environment_code_missing_script_fails"
          -- python3 "${CMAKE_CURRENT_SOURCE_DIR}/no_such_payload.py"
  OUTPUT "command itself is wrong .*can't open file .*no_such_payload\\.py"
         "a usage error is a failure, not a skip"
  JSON "${out}/run.environment_code_missing_script_fails/trial_0/result.json::verdict=fail")

aorta_cli_test(run.environment_code_argparse_error_fails RC 1
  CLEAN "${out}/run.environment_code_argparse_error_fails"
  COMMAND "${aorta}" sweep run --recipe "${recipes}/environment_code.yaml"
          --output "${out}/run.environment_code_argparse_error_fails"
          -- python3 "${CMAKE_CURRENT_SOURCE_DIR}/argparse_payload.py" --bogus
  OUTPUT "\"payload: error: unrecognized arguments: --bogus\""
         "a usage error is a failure, not a skip")

aorta_cli_test(run.environment_marker_matches_skips RC 77
  CLEAN "${out}/run.environment_marker_matches_skips"
  COMMAND "${aorta}" sweep run --recipe "${recipes}/environment_marker.yaml"
          --output "${out}/run.environment_marker_matches_skips"
          -- /bin/sh -c "echo 'payload: no GPU visible, refusing to run' >&2 && exit 2"
  OUTPUT "trial 0 SKIPPED: payload exited 2")

aorta_cli_test(run.environment_marker_missing_fails RC 1
  CLEAN "${out}/run.environment_marker_missing_fails"
  COMMAND "${aorta}" sweep run --recipe "${recipes}/environment_marker.yaml"
          --output "${out}/run.environment_marker_missing_fails"
          -- /bin/sh -c "echo 'segment table corrupt' >&2 && exit 2"
  OUTPUT "printed nothing matching the recipe's environment_marker /refusing to run/")

aorta_cli_test(run.timeout RC 1 TIMEOUT 25
  CLEAN "${out}/run.timeout"
  COMMAND "${aorta}" sweep run --recipe "${recipes}/timeout.yaml" --output "${out}/run.timeout"
          -- sleep 30
  OUTPUT "trial 0 FAILED: payload timed out"
  JSON "${out}/run.timeout/trial_0/result.json::timed_out=ON"
       "${out}/run.timeout/trial_0/result.json::verdict=fail")

aorta_cli_test(run.killed_by_signal RC 1
  CLEAN "${out}/run.killed_by_signal"
  COMMAND "${aorta}" sweep run --recipe "${recipes}/plain.yaml"
          --output "${out}/run.killed_by_signal" -- /bin/sh -c "kill -KILL $$"
  OUTPUT "trial 0 FAILED: payload died of signal 9 \\(SIGKILL\\)"
  JSON "${out}/run.killed_by_signal/trial_0/result.json::signal=9"
       "${out}/run.killed_by_signal/trial_0/result.json::verdict=fail")

# Spaces, quotes and a command substitution reach the payload as literal argv elements: nothing
# on the way is a shell. printf prints each argument between brackets on its own line.
set(literal_dir "${out}/run.argv_literal")
aorta_cli_test(run.argv_literal RC 0
  CLEAN "${literal_dir}" WORKING_DIRECTORY "${literal_dir}"
  COMMAND "${aorta}" sweep run --recipe "${recipes}/plain.yaml" --output "${literal_dir}/result"
          -- printf "[%s]\\n" "two words" "it's \"quoted\"" "$(touch injected)" "`touch tick`"
             "*" "a|b"
  FILE_REGEX "${literal_dir}/result/trial_0/stdout.log"
    "^\\[two words\\]\n\\[it's \"quoted\"\\]\n\\[\\$\\(touch injected\\)\\]\n\\[`touch tick`\\]\n\\[\\*\\]\n\\[a\\|b\\]\n$"
  JSON "${literal_dir}/result/trial_0/result.json::command/3=it's \"quoted\""
       "${literal_dir}/result/trial_0/result.json::command/4=$(touch injected)"
  NO_FILES "${literal_dir}/injected" "${literal_dir}/tick")

aorta_cli_test(run.missing_separator RC 64
  COMMAND "${aorta}" sweep run --recipe "${recipes}/plain.yaml" --output "${out}/unused"
          /bin/true
  OUTPUT "missing '--' separator before the command")

aorta_cli_test(run.no_command RC 64
  COMMAND "${aorta}" sweep run --recipe "${recipes}/plain.yaml" --output "${out}/unused" --
  OUTPUT "no command to run: give it after '--'")

aorta_cli_test(run.missing_recipe RC 64
  COMMAND "${aorta}" sweep run --recipe "${recipes}/no-such.yaml" --output "${out}/unused"
          -- /bin/true
  OUTPUT "no-such.yaml: cannot read the recipe")

# CTest's GPU allocation reaches the payload as CUDA_VISIBLE_DEVICES and ROCR_VISIBLE_DEVICES.
aorta_cli_test(run.ctest_gpu_allocation RC 0
  ENV CTEST_RESOURCE_GROUP_COUNT=2 "CTEST_RESOURCE_GROUP_0_GPUS=id:1,slots:1"
      "CTEST_RESOURCE_GROUP_1_GPUS=id:6,slots:1"
  CLEAN "${out}/run.ctest_gpu_allocation"
  COMMAND "${aorta}" sweep run --recipe "${recipes}/plain.yaml"
          --output "${out}/run.ctest_gpu_allocation"
          -- /bin/sh -c "echo cuda=$CUDA_VISIBLE_DEVICES rocr=$ROCR_VISIBLE_DEVICES"
  OUTPUT "CTest allocated GPU\\(s\\) 1,6: setting CUDA_VISIBLE_DEVICES"
  FILE_REGEX "${out}/run.ctest_gpu_allocation/trial_0/stdout.log" "^cuda=1,6 rocr=1,6\n$")

aorta_cli_test(run.ctest_gpu_allocation_malformed RC 1
  ENV CTEST_RESOURCE_GROUP_COUNT=one "CTEST_RESOURCE_GROUP_0_GPUS=id:1,slots:1"
  CLEAN "${out}/run.ctest_gpu_allocation_malformed"
  COMMAND "${aorta}" sweep run --recipe "${recipes}/plain.yaml"
          --output "${out}/run.ctest_gpu_allocation_malformed" -- /bin/true
  OUTPUT "CTEST_RESOURCE_GROUP_COUNT='one' is not a non-negative integer"
  NO_FILES "${out}/run.ctest_gpu_allocation_malformed")

# --platforms: a lane's own tests still fail when their profiler is missing, tests for another
# platform are skipped as not applicable even under --require-profiler (issue: an NVIDIA lane
# could never be green while rocprof and callgrind tests failed there).
aorta_cli_test(run.lane_other_platform_is_not_applicable RC 77
  CLEAN "${out}/run.lane_other_platform"
  COMMAND "${aorta}" sweep run --recipe "${PROJECT_SOURCE_DIR}/tests/fixtures/recipes/torch-matmul.yaml"
          --output "${out}/run.lane_other_platform" --require-profiler --platforms nvidia
          -- /bin/true
  OUTPUT "SKIPPED: not applicable on this lane: it covers nvidia \\(--platforms\\)"
         "capture only on amd: rocprof \\(amd\\)"
  NOT_OUTPUT "required profiler unavailable"
  JSON "${out}/run.lane_other_platform/trial_0/result.json::verdict=skip")

aorta_cli_test(run.lane_cpu_test_on_a_gpu_lane RC 77
  CLEAN "${out}/run.lane_cpu_test"
  COMMAND "${aorta}" sweep run --recipe "${recipes}/callgrind_ratio.yaml"
          --output "${out}/run.lane_cpu_test" --require-profiler --platforms nvidia,amd
          -- /bin/true
  OUTPUT "it covers nvidia, amd \\(--platforms\\), and the recipe's collectors capture only on cpu"
  JSON "${out}/run.lane_cpu_test/trial_0/result.json::verdict=skip")

# This machine has no GPU (CI's never does): a test that belongs on the lane still fails.
if(NOT EXISTS /dev/nvidiactl AND NOT EXISTS /dev/kfd)
  aorta_cli_test(run.lane_own_test_still_fails RC 1
    CLEAN "${out}/run.lane_own_test"
    COMMAND "${aorta}" sweep run --recipe "${recipes}/proton_cli.yaml"
            --output "${out}/run.lane_own_test" --require-profiler --platforms nvidia
            -- python3 "${CMAKE_CURRENT_SOURCE_DIR}/argparse_payload.py"
    OUTPUT "FAILED: required profiler unavailable: proton needs a GPU"
    NOT_OUTPUT "not applicable"
    JSON "${out}/run.lane_own_test/trial_0/result.json::verdict=fail")
endif()

aorta_cli_test(run.lane_dry_run_notes_it RC 0
  COMMAND "${aorta}" sweep run --recipe "${PROJECT_SOURCE_DIR}/tests/fixtures/recipes/torch-matmul.yaml"
          --output "${out}/run.lane_dry_run" --platforms cpu --dry-run -- /bin/true
  OUTPUT "note: not applicable on this lane: it covers cpu"
  NO_FILES "${out}/run.lane_dry_run/trial_0/result.json")

aorta_cli_test(run.lane_bad_platform RC 64
  COMMAND "${aorta}" sweep run --recipe "${recipes}/plain.yaml" --output "${out}/run.lane_bad"
          --platforms nvidia,gpu -- /bin/true
  OUTPUT "--platforms 'nvidia,gpu': 'gpu' is not a platform"
  NO_FILES "${out}/run.lane_bad")
