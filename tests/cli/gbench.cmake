# The gbench collector (Google Benchmark) through the CLI: `aorta check` on the real outputs of the
# Debian package (tests/fixtures/gbench), with and without --collector; the end-to-end run is the
# example gbench.cpu-sort (examples/CMakeLists.txt).
set(gbench_fixtures "${PROJECT_SOURCE_DIR}/tests/fixtures/gbench")

aorta_cli_test(gbench.check_reads_benchmarks_as_rows RC 0
  COMMAND "${aorta}" check --collector gbench "${gbench_fixtures}/plain.json"
          --check "time_ms(^BM_Sort/1024$) > 0" --check "count(BM_Sort) == 2"
          --check "top_kernel ~ ^BM_Sort/16384$"
          --check "gbench.BM_Copy/65536.bytes_per_second > 1e6"
  OUTPUT "check PASS  time_ms\\(\\^BM_Sort/1024\\$\\) > 0" "check PASS  count\\(BM_Sort\\) == 2"
         "check PASS  gbench\\.BM_Copy/65536\\.bytes_per_second > 1e6"
  NOT_OUTPUT "empty capture")

aorta_cli_test(gbench.check_detects_the_format RC 0
  COMMAND "${aorta}" check "${gbench_fixtures}/repetitions.json"
          --check "count(^BM_Copy/65536$) == 3"
  OUTPUT "reading it with --collector gbench" "check PASS  count\\(\\^BM_Copy/65536\\$\\) == 3")

# A check on a benchmark that does not exist is not measured and fails, naming the closest names,
# where it read 0 and passed `< 1` (issue 39, item 1); count() keeps its 0, and `?` opts in to 0.
aorta_cli_test(gbench.check_on_no_benchmark_fails RC 1
  COMMAND "${aorta}" check --collector gbench "${gbench_fixtures}/plain.json"
          --check "time_ms(BM_Srot/1024) < 1" --check "count(BM_Nope) == 0"
          --check "time_ms(BM_Nope)? < 1"
  OUTPUT "check FAIL  time_ms\\(BM_Srot/1024\\) < 1"
         "no kernel matches 'BM_Srot/1024', so time_ms\\(BM_Srot/1024\\) was not measured\\; did you mean: BM_Sort/1024, "
         "check PASS  count\\(BM_Nope\\) == 0" "check PASS  time_ms\\(BM_Nope\\)\\? < 1")

# A benchmark that called SkipWithError fails the run even with only passing checks.
aorta_cli_test(gbench.error_occurred_fails_naming_the_benchmark RC 1
  COMMAND "${aorta}" check --collector gbench "${gbench_fixtures}/skip-with-error.json"
          --check "time_ms(^BM_Sort/1024$) > 0"
  OUTPUT "'BM_Failing': planted failure: the input file is missing")

aorta_cli_test(gbench.other_json_is_refused_naming_the_file RC 1
  COMMAND "${aorta}" check --collector gbench "${PROJECT_SOURCE_DIR}/tests/fixtures/recipes/natural.json"
          --check "time_ms(.) > 0"
  OUTPUT "natural\\.json is not Google Benchmark JSON: it needs a \"context\" object"
  NOT_OUTPUT "check PASS")

# Another profiler's file is named as such before it is read.
aorta_cli_test(gbench.another_profilers_file_is_named RC 64
  COMMAND "${aorta}" check --collector gbench
          "${PROJECT_SOURCE_DIR}/tests/fixtures/rocprof/results_json/node01/4242_results.json"
          --check "time_ms(.) > 0"
  OUTPUT "4242_results\\.json: not a Google Benchmark JSON file: it looks like a rocprofv3 capture"
  NOT_OUTPUT "check PASS")

aorta_cli_test(gbench.unknown_option_refused RC 64
  COMMAND "${aorta}" sweep run --recipe "${recipes}/gbench_bad_option.yaml" --output "${out}/unused"
          -- /bin/true
  OUTPUT "gbench_bad_option\\.yaml:5:[0-9]+: recipe\\.collect\\.gbench\\.repetition: unknown option\\(s\\) \\[repetition\\]"
         "Did you mean 'repetitions'")
