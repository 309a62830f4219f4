# Hostile inputs, round two (issue 18): the command line, baselines, ranks, the process and exit
# codes. Each case is a finding of the second outside audit (its number in the comment); the
# small inputs are written here at configure time.
set(hostile_cli "${CMAKE_CURRENT_BINARY_DIR}/hostile_cli_inputs")
file(MAKE_DIRECTORY "${hostile_cli}")

# (10) --timeout is held to the recipe's range: 1e10 lost result.json; nan and 1e300 meant no
# timeout at all.
foreach(value IN ITEMS 1e10 nan 1e300 inf 0 -1 0.0001)
  string(REPLACE "." "_" id "${value}")
  string(REPLACE "-" "minus" id "${id}")
  aorta_cli_test(hostile.sweep_timeout_${id} RC 64
    CLEAN "${out}/hostile.sweep_timeout_${id}"
    COMMAND "${aorta}" sweep run --recipe "${recipes}/plain.yaml" --timeout ${value}
            --output "${out}/hostile.sweep_timeout_${id}" -- /bin/true
    OUTPUT "--timeout: [^ ]+ s is out of range. allowed: 0\\.001 to 2592000 seconds"
    NO_FILES "${out}/hostile.sweep_timeout_${id}/trial_0")
endforeach()
aorta_cli_test(hostile.sweep_timeout_in_range RC 0
  CLEAN "${out}/hostile.sweep_timeout_in_range"
  COMMAND "${aorta}" sweep run --recipe "${recipes}/plain.yaml" --timeout 2592000
          --output "${out}/hostile.sweep_timeout_in_range" -- /bin/true
  JSON "${out}/hostile.sweep_timeout_in_range/trial_0/result.json::verdict=pass")

# (11) Under a file size limit the payload's log hits it: SIGXFSZ killed aorta (153) with no word
# and no result.json. Now the write fails, the trial fails saying so, and result.json is written.
aorta_cli_test(hostile.file_size_limit RC 1
  CLEAN "${out}/hostile.file_size_limit"
  COMMAND sh -c "ulimit -f 64 && exec '${aorta}' sweep run --recipe '${recipes}/plain.yaml' --output '${out}/hostile.file_size_limit' -- sh -c 'yes | head -c 1000000'"
  OUTPUT "the payload's output log is incomplete: cannot write '[^']*stdout\\.log': File too large"
  JSON "${out}/hostile.file_size_limit/trial_0/result.json::verdict=fail")

# (19) Names that become paths stay inside their parent.
aorta_cli_test(hostile.baseline_test_name_escapes RC 64
  CLEAN "${out}/hostile.baseline_test_name_escapes"
  COMMAND "${aorta}" baseline record "${h200}/../h200-ranks/ncu"
          --into "${out}/hostile.baseline_test_name_escapes/a/base" --test-name ../../x
  OUTPUT "--test-name '\\.\\./\\.\\./x' cannot become a path inside [^:]*: it holds a '/'"
  NO_FILES "${out}/hostile.baseline_test_name_escapes/x.json"
           "${out}/hostile.baseline_test_name_escapes/a/base")
aorta_cli_test(hostile.baseline_test_name_absolute RC 64
  CLEAN "${out}/hostile.baseline_test_name_absolute"
  COMMAND "${aorta}" baseline record "${h200}/../h200-ranks/ncu"
          --into "${out}/hostile.baseline_test_name_absolute/base"
          --test-name "${out}/hostile.baseline_test_name_absolute/abs"
  OUTPUT "cannot become a path inside [^:]*: it is an absolute path"
  NO_FILES "${out}/hostile.baseline_test_name_absolute/abs.json")
aorta_cli_test(hostile.rank_exec_collectors_escape RC 64
  CLEAN "${out}/hostile.rank_exec_collectors_escape"
  COMMAND sh -c "mkdir -p '${out}/hostile.rank_exec_collectors_escape/a/b/trial' && RANK=0 exec '${aorta}' rank-exec --trial-dir '${out}/hostile.rank_exec_collectors_escape/a/b/trial' --collectors ../../../x -- true"
  OUTPUT "rank-exec --collectors '\\.\\./\\.\\./\\.\\./x' cannot become a path inside"
  NO_FILES "${out}/hostile.rank_exec_collectors_escape/a/x"
           "${out}/hostile.rank_exec_collectors_escape/a/b/trial/rank_0")

# (24) A baseline key of the wrong type names the file and key (was "internal error:
# [json.exception.type_error.302]"); a trial count the file cannot hold is refused, not allocated.
file(WRITE "${hostile_cli}/typed/vecadd.json"
  [=[{"schema": "aorta-baseline", "schema_version": 1, "test": 5, "trials": 1}]=])
aorta_cli_test(hostile.baseline_wrong_type RC 1
  COMMAND "${aorta}" baseline show "${hostile_cli}/typed/vecadd.json"
  OUTPUT "baseline [^ ]*vecadd\\.json: 'test' is number \\(5\\), not a string"
  NOT_OUTPUT "internal error")
file(WRITE "${hostile_cli}/many_trials/vecadd.json"
  [=[{"schema": "aorta-baseline", "schema_version": 1, "test": "vecadd", "trials": 100000000}]=])
# The memory cap makes the old 6 GB allocation fail the test; AddressSanitizer reserves terabytes
# of shadow address space at start, so under it the test runs uncapped.
if(CMAKE_CXX_FLAGS MATCHES "sanitize=address")
  set(memory_cap "")
else()
  set(memory_cap "ulimit -v 2000000 && ")
endif()
aorta_cli_test(hostile.baseline_huge_trials RC 1
  COMMAND sh -c "${memory_cap}exec '${aorta}' baseline show '${hostile_cli}/many_trials/vecadd.json'"
  OUTPUT "'trials' is 100000000, not a positive count of at most 1000000"
  NOT_OUTPUT "internal error")

# (26) compare over a directory that holds a baseline and an unrelated JSON file.
set(good_series [=[{"samples": [1.0, 2.0], "median": 1.5, "q1": 1.25, "q3": 1.75, "min": 1.0, "n": 2}]=])
file(WRITE "${hostile_cli}/compare_dir/vecadd.json"
  "{\"schema\": \"aorta-baseline\", \"schema_version\": 1, \"test\": \"vecadd\", \"trials\": 2, "
  "\"kernels\": {\"add_kernel\": {\"time_ms\": ${good_series}}}}")
file(WRITE "${hostile_cli}/compare_dir/notes.json" [=[{"schema": 5, "note": "not a baseline"}]=])
aorta_cli_test(hostile.compare_unrelated_json RC 0
  COMMAND "${aorta}" compare "${hostile_cli}/compare_dir" "${hostile_cli}/compare_dir"
  OUTPUT "no confident regression"
  NOT_OUTPUT "internal error")

# (26) A --begin-run marker that is not a timestamp hid every result as stale.
aorta_cli_test(hostile.report_bad_run_marker RC 1
  CLEAN "${out}/hostile.report_bad_run_marker"
  COMMAND sh -c "'${aorta}' sweep run --recipe '${recipes}/plain.yaml' --output '${out}/hostile.report_bad_run_marker/t' -- /bin/true > /dev/null && echo zzz > '${out}/hostile.report_bad_run_marker/.aorta-run-started' && exec '${aorta}' report '${out}/hostile.report_bad_run_marker'"
  OUTPUT "\\.aorta-run-started holds 'zzz', not the start of a run"
  NOT_OUTPUT "stale result")

# (26) A FIFO on the command line hung `view` forever.
aorta_cli_test(hostile.view_fifo RC 64 TIMEOUT 30
  CLEAN "${out}/hostile.view_fifo"
  COMMAND sh -c "mkdir -p '${out}/hostile.view_fifo' && mkfifo '${out}/hostile.view_fifo/p.hatchet' && exec '${aorta}' view '${out}/hostile.view_fifo/p.hatchet'"
  OUTPUT "p\\.hatchet: not a regular file \\(a FIFO, device or socket\\)")

# (26) Check expressions the grammar accepted but the evaluation could not honour.
aorta_cli_test(hostile.top_kernel_second_regex RC 64
  COMMAND "${aorta}" validate "${recipes}/plain.yaml" --check "top_kernel(under(decode), gemm) ~ gemv"
  OUTPUT "only under\\(PATH\\) inside top_kernel\\(\\.\\.\\.\\): the kernel regex goes after '~'")
aorta_cli_test(hostile.baseline_minus_150_percent RC 64
  COMMAND "${aorta}" validate "${recipes}/plain.yaml" --check "time_ms(^gemm) >= baseline - 150%"
  OUTPUT "a percentage below 100 after 'baseline -' \\('baseline - 150%' is zero or negative")
aorta_cli_test(hostile.imbalance_against_baseline RC 64
  COMMAND "${aorta}" validate "${recipes}/plain.yaml" --check "imbalance(time_ms(^gemm)) <= baseline + 5%"
  OUTPUT "a number after imbalance\\(\\.\\.\\.\\): a baseline holds each trial's sum over the ranks")

# (25) An internal error (here the standard library's: the working directory was deleted under
# aorta) exits 70, never 1, which is the code of a failed test.
aorta_cli_test(hostile.internal_error_exits_70 RC 70
  CLEAN "${out}/hostile.internal_error_exits_70"
  COMMAND sh -c "mkdir -p '${out}/hostile.internal_error_exits_70/gone' && cd '${out}/hostile.internal_error_exits_70/gone' && rmdir ../gone && exec '${aorta}' sweep run --recipe '${recipes}/plain.yaml' --output '${out}/hostile.internal_error_exits_70/out' -- /bin/true"
  OUTPUT "aorta: internal error \\(a bug in aorta, exit 70\\): ")
