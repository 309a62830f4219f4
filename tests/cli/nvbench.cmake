# The nvbench collector through the CLI: `aorta check` on the real nvbench output NVIDIA ships in
# the cuda-bench wheel (tests/fixtures/nvbench), with and without --collector; the end-to-end run
# is the example nvbench.gpu-gemm on the GPU lane (examples/CMakeLists.txt).
set(nvbench_fixture "${PROJECT_SOURCE_DIR}/tests/fixtures/nvbench/cuda-bench-0.3.0-test_ref.json")

aorta_cli_test(nvbench.check_reads_states_as_rows RC 0
  COMMAND "${aorta}" check --collector nvbench "${nvbench_fixture}"
          --check "time_ms(^simple/Device:0$) > 0.9" --check "count(^copy_type_sweep/Device:0/) == 6"
          --check "nvbench.copy_type_sweep/Device:0/T:F64.bytes_per_second > 1e11"
          --check "nvbench.simple/Device:0.gpu_noise < 0.01"
  OUTPUT "check PASS  time_ms\\(\\^simple/Device:0\\$\\) > 0\\.9"
         "check PASS  count\\(\\^copy_type_sweep/Device:0/\\) == 6"
         "check PASS  nvbench\\.copy_type_sweep/Device:0/T:F64\\.bytes_per_second > 1e11"
  NOT_OUTPUT "empty capture")

aorta_cli_test(nvbench.check_detects_the_format RC 0
  COMMAND "${aorta}" check "${nvbench_fixture}" --check "time_ms(^simple/Device:1$) > 0"
  OUTPUT "reading it with --collector nvbench" "check PASS")

aorta_cli_test(nvbench.other_json_is_refused_naming_the_file RC 1
  COMMAND "${aorta}" check --collector nvbench "${PROJECT_SOURCE_DIR}/tests/fixtures/recipes/natural.json"
          --check "time_ms(.) > 0"
  OUTPUT "natural\\.json is not nvbench JSON: it needs a \"meta\" object"
  NOT_OUTPUT "check PASS")

# Google Benchmark's file is named as such before it is read.
aorta_cli_test(nvbench.gbench_file_is_named RC 64
  COMMAND "${aorta}" check --collector nvbench "${PROJECT_SOURCE_DIR}/tests/fixtures/gbench/plain.json"
          --check "time_ms(.) > 0"
  OUTPUT "plain\\.json: not an nvbench JSON file: it looks like a Google Benchmark"
  NOT_OUTPUT "check PASS")

aorta_cli_test(nvbench.unknown_option_refused RC 64
  COMMAND "${aorta}" sweep run --recipe "${recipes}/nvbench_bad_option.yaml" --output "${out}/unused"
          -- /bin/true
  OUTPUT "nvbench_bad_option\\.yaml:5:[0-9]+: recipe\\.collect\\.nvbench\\.min_sample: unknown option\\(s\\) \\[min_sample\\]"
         "Did you mean 'min_samples'")

aorta_cli_test(nvbench.with_gbench_refused RC 64
  COMMAND "${aorta}" validate "${recipes}/nvbench_with_gbench.yaml"
  OUTPUT "recipe\\.collect\\.gbench: gbench cannot run together with the GPU collector\\(s\\) \\[nvbench\\]")

# The H200 capture of the example (tests/fixtures/nvbench/README.md).
aorta_cli_test(nvbench.h200_capture_checks RC 0
  COMMAND "${aorta}" check "${PROJECT_SOURCE_DIR}/tests/fixtures/nvbench/h200-gemm.json"
          --check "time_ms(^gemm/N:2048$) / time_ms(^gemm/N:1024$) >= 4"
          --check "nvbench.gemm/N:2048.gpu_noise < 0.05"
  OUTPUT "check PASS  time_ms\\(\\^gemm/N:2048\\$\\) / time_ms\\(\\^gemm/N:1024\\$\\) >= 4")

# A state that threw fails the run whatever the checks say, naming the state and nvbench's reason.
aorta_cli_test(nvbench.state_that_threw_fails_naming_it RC 1
  COMMAND "${aorta}" check "${PROJECT_SOURCE_DIR}/tests/fixtures/nvbench/h200-gemm-error.json"
          --check "nvbench_error_count >= 0" --allow-empty
  OUTPUT "nvbench reported 2 failed benchmark state\\(s\\); the first: 'gemm/N:1024': Unexpected error: AORTA_NVBENCH_EXTRA_PERCENT='ten'")

# --jsonbin's per-sample times (tests/fixtures/nvbench/jsonbin, hand-made from nvbench's
# published format): the first 2 of 16 samples are 5x and 2x the steady 2.1 ms, so nvbench's own
# mean is 2.76 ms and the mean after the warm-up rule 2.106 ms; only the latter is under 2.2.
aorta_cli_test(nvbench.jsonbin_samples_drop_the_warm_up RC 0
  COMMAND "${aorta}" check --collector nvbench "${PROJECT_SOURCE_DIR}/tests/fixtures/nvbench/jsonbin"
          --check "time_ms(^gemm/N:2048$) < 2.2" --check "time_ms(^gemm/N:2048$) > 2.0"
  OUTPUT "check PASS  time_ms\\(\\^gemm/N:2048\\$\\) < 2\\.2"
         "the first 2 of its 16 samples are warm-up")

# `sample_times: true` (issue 39): the collector passes --jsonbin instead of --json, so its own
# captures carry nvbench's per-sample times. tests/cli/nvbench/fake_nvbench.py stands in for an
# nvbench executable (the published --json/--jsonbin format; the fixture's 16 samples).
find_package(Python3 REQUIRED COMPONENTS Interpreter)
set(nvbench_fake "${CMAKE_CURRENT_SOURCE_DIR}/nvbench/fake_nvbench.py")
set(nvbench_samples_recipe "${recipes}/nvbench_sample_times.yaml")
aorta_cli_test(nvbench.sample_times_wraps_with_jsonbin RC 0
  CLEAN "${out}/nvbench_sample_times_dry"
  COMMAND "${aorta}" sweep run --recipe "${nvbench_samples_recipe}"
          --output "${out}/nvbench_sample_times_dry" --dry-run -- python3 "${nvbench_fake}"
  OUTPUT "trial 0: would run: python3 [^ ]*fake_nvbench\\.py --jsonbin [^ ]*/nvbench_sample_times_dry/trial_0/nvbench/nvbench\\.json\n"
  NOT_OUTPUT " --json ")
foreach(case IN ITEMS not_bool list)
  aorta_cli_test(nvbench.sample_times_${case}_refused RC 64
    COMMAND "${aorta}" validate "${recipes}/nvbench_sample_times_${case}.yaml"
    OUTPUT "nvbench_sample_times_${case}\\.yaml:[56]:19: recipe\\.collect\\.nvbench\\.sample_times: expected a boolean, got '(sometimes|true,false)'\\; allowed: true, false"
           "Fix: sample_times: true to read nvbench's per-sample times \\(--jsonbin\\)")
endforeach()
aorta_cli_test(nvbench.sample_times_typo_refused RC 64
  COMMAND "${aorta}" validate "${recipes}/nvbench_sample_times_typo.yaml"
  OUTPUT "nvbench_sample_times_typo\\.yaml:5:[0-9]+: recipe\\.collect\\.nvbench\\.sample_time: unknown option\\(s\\)"
         "Did you mean 'sample_times'")

# Reading with the recipe (`aorta check --recipe`): the capture fake_nvbench.py writes under
# --jsonbin gives the warm-up-trimmed mean (2.1065 ms, nvbench's own 2.762); a JSON without the
# sample-times summary, or a sidecar that is missing, is an error naming the file and the state,
# never nvbench's mean.
foreach(case IN ITEMS none no-summary no-sidecar)
  set(nvbench_capture "${out}/nvbench_sample_times_${case}")
  set(unexpected "check PASS")
  if(case STREQUAL "none")
    set(rc 0)
    set(expected "check PASS  time_ms\\(\\^gemm/N:2048\\$\\) < 2\\.2"
                 "the first 2 of its 16 samples are warm-up")
    set(unexpected "check FAIL")
  elseif(case STREQUAL "no-summary")
    set(rc 1)
    set(expected "nvbench\\.json: benchmark state 'gemm/N:2048': no per-sample times \\(no summary 'nv/json/bin:nv/cold/sample_times'\\), but the recipe asks for them \\(collect\\.nvbench\\.sample_times: true\\)")
  else()
    set(rc 1)
    set(expected "nvbench\\.json: benchmark state 'gemm/N:2048': sample times \\(nv/json/bin:nv/cold/sample_times\\): [^ ]*/nvbench\\.json-bin/0\\.bin: cannot open")
  endif()
  aorta_cli_test(nvbench.sample_times_read_${case} RC ${rc}
    CLEAN "${nvbench_capture}"
    COMMAND /bin/sh -c "\"$0\" \"$1\" --fake-damage \"$2\" --jsonbin \"$3/nvbench.json\" >/dev/null && exec \"$4\" check --recipe \"$5\" \"$3\" --check 'time_ms(^gemm/N:2048$) < 2.2' --check 'time_ms(^gemm/N:2048$) > 2.0'"
            "${Python3_EXECUTABLE}" "${nvbench_fake}" "${case}" "${nvbench_capture}" "${aorta}"
            "${nvbench_samples_recipe}"
    OUTPUT ${expected}
    NOT_OUTPUT "${unexpected}")
endforeach()

# Through `aorta sweep run` (the argv the program saw, the trial's time, the failing trials, a
# baseline of means gated against a run of samples): needs an NVIDIA device node, so it is
# skipped (77) where there is none. It passed on an H100 (2026-12-06, phase `fake` of
# benchmarks/gpu-2026-12-06c/h39c/run.sh) and here in a mount namespace with an empty /dev/nvidiactl.
add_test(NAME aorta.cli.nvbench.sample_times_sweep
  COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/nvbench/sweep_sample_times.py
          --aorta "${aorta}" --work "${out}/nvbench_sample_times_sweep")
set_tests_properties(aorta.cli.nvbench.sample_times_sweep PROPERTIES
  LABELS cli TIMEOUT 180 SKIP_RETURN_CODE 77)
