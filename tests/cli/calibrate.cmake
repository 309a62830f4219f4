# `aorta calibrate` (docs/regression-gate.md, "Calibration"): an A/A run recorded as the baseline
# with each timed row's noise, and the trials each row needs. The payload is the Google Benchmark
# example (examples/profiling/gbench/cpu-sort), built here since examples/ comes after tests/.
set(calib_out "${out}/calibrate")

aorta_cli_test(calibrate.too_few_trials_refused RC 64
  COMMAND "${aorta}" calibrate --recipe "${recipes}/calibrate_gbench.yaml"
          --output "${calib_out}/unused" --into "${calib_out}/unused-base" --trials 2 -- /bin/true
  OUTPUT "--trials 2: calibration measures noise between trials and needs at least 3"
  NO_FILES "${calib_out}/unused" "${calib_out}/unused-base")

find_package(benchmark CONFIG QUIET)
if(NOT benchmark_FOUND)
  return()
endif()
add_executable(aorta_cli_calibrate_sort
  ${PROJECT_SOURCE_DIR}/examples/profiling/gbench/cpu-sort/sort_bench.cpp)
target_link_libraries(aorta_cli_calibrate_sort PRIVATE aorta_warnings benchmark::benchmark)
target_compile_options(aorta_cli_calibrate_sort PRIVATE $<$<CXX_COMPILER_ID:GNU,Clang>:-fno-sanitize=all>)
target_link_options(aorta_cli_calibrate_sort PRIVATE $<$<CXX_COMPILER_ID:GNU,Clang>:-fno-sanitize=all>)
set(calib_payload "$<TARGET_FILE:aorta_cli_calibrate_sort>"
    "--benchmark_filter=^BM_Sort/(1024|16384)$" --benchmark_min_time=0.01)

aorta_cli_test(calibrate.records_noise_and_trials RC 0
  CLEAN "${calib_out}/sort" "${calib_out}/base"
  COMMAND "${aorta}" calibrate --recipe "${recipes}/calibrate_gbench.yaml"
          --output "${calib_out}/sort" --into "${calib_out}/base" --trials 4 --gate-trials 3
          -- ${calib_payload}
  OUTPUT "baseline [^ ]*base/sort.json: 4 trial\\(s\\), 2 kernel\\(s\\)"
         "calibrate: 2 timed row\\(s\\) over 4 trial\\(s\\)"
         "time_ms\\(BM_Sort/1024\\) +median +[0-9.e+-]+ +noise +[0-9.]+% +needs ([0-9]+ trial|more than 100)"
         "calibrate: (every timed row can be gated with 3 trial|[12] row\\(s\\) cannot be gated at 3)"
  FILE_REGEX "${calib_out}/base/sort.json" "\"noise\": [0-9.e-]+"
  JSON "${calib_out}/base/sort.json::trials=4" "${calib_out}/base/sort.json::test=sort")

aorta_cli_test(calibrate.a_failing_run_records_nothing RC 1
  CLEAN "${calib_out}/failing" "${calib_out}/failing-base"
  COMMAND "${aorta}" calibrate --recipe "${recipes}/calibrate_failing_check.yaml"
          --output "${calib_out}/failing" --into "${calib_out}/failing-base" --trials 3
          -- ${calib_payload}
  OUTPUT "the A/A run did not pass \\(exit 1\\), so nothing was recorded"
  NO_FILES "${calib_out}/failing-base/failing.json")

# A trailing separator on --output names the test after its last directory, as without it.
aorta_cli_test(calibrate.output_with_a_trailing_slash RC 0
  CLEAN "${calib_out}/slash" "${calib_out}/slash-base"
  COMMAND "${aorta}" calibrate --recipe "${recipes}/calibrate_gbench.yaml"
          --output "${calib_out}/slash/" --into "${calib_out}/slash-base" --trials 3 --gate-trials 3
          -- ${calib_payload}
  OUTPUT "calibrate: 2 timed row\\(s\\) over 3 trial\\(s\\)"
  NOT_OUTPUT "cannot become a path"
  JSON "${calib_out}/slash-base/slash.json::test=slash")
