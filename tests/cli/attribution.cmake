# Verdicts that explain themselves (issue 43): the confound table leads with the row that carries
# the change, with its share, interval and the words "more work" / "same work, slower"; the
# summary sentence says it once; report.html shows the A/B (tests/report/chromium_ab_check.sh).
add_executable(aorta_cli_ab_work ab_work.cpp)
target_link_libraries(aorta_cli_ab_work PRIVATE aorta_warnings)
target_compile_options(aorta_cli_ab_work PRIVATE $<$<CXX_COMPILER_ID:GNU,Clang>:-fno-sanitize=all>)
target_link_options(aorta_cli_ab_work PRIVATE $<$<CXX_COMPILER_ID:GNU,Clang>:-fno-sanitize=all>)
set(ab_work "$<TARGET_FILE:aorta_cli_ab_work>")
# One function, expensive(), does 10% more work in head; nothing else changes.
file(GENERATE OUTPUT "${out}/attribution_ab-$<CONFIG>.yaml" CONTENT "schema_version: 1
trials: 1
collect: [callgrind]
mitigations:
  base: {env: {AB_EXTRA_PERCENT: '0'}}
  head: {env: {AB_EXTRA_PERCENT: '10'}}
mitigation_axis: [base, head]
confound: {baseline_cell: base, threshold: 1.05}
")
set(attribution_recipe "${out}/attribution_ab-$<CONFIG>.yaml")

add_test(NAME aorta.report.chromium_ab
  COMMAND ${PROJECT_SOURCE_DIR}/tests/report/chromium_ab_check.sh "${aorta}"
          "${out}/report-chromium-ab" "${attribution_recipe}" "${ab_work}")
set_tests_properties(aorta.report.chromium_ab PROPERTIES
  LABELS "cli;report" SKIP_RETURN_CODE 77 TIMEOUT 300)

if(NOT AORTA_TEST_VALGRIND)
  message(STATUS "tests/cli: valgrind not found, the attribution CLI runs are not registered")
  return()
endif()

# The hidden-style A/B: the first row and the summary name expensive() with its self share of the
# change (about 100%: cheap() and main() do the same work in both cells) and "more work"; the
# banner names no GPU for a CPU run.
aorta_cli_test(attribution.one_function_more_work RC 0 TIMEOUT 300
  CLEAN "${out}/attribution_ab"
  COMMAND "${aorta}" sweep run --recipe "${attribution_recipe}" --output "${out}/attribution_ab"
          --seed 43 -- "${ab_work}"
  OUTPUT "interleaved one trial per cell per round \\(seed 43\\), on this host; confound baseline cell base, threshold 1\\.05 \\(the recipe's confound\\.threshold\\)"
         "quantity[^\n]*\nhead +base +ir\\(expensive\\(unsigned long\\)\\) [^\n]+ (9[0-9]|1[0-9][0-9])% self [^\n]+SLOWER +more work \\(Ir \\+[0-9.]+%\\)\nhead +base +ir\\(main\\) [^\n]+ 0% self [^\n]+SLOWER +more work in its callees"
         "aorta: summary: head is [0-9.]+% slower than base \\(total Ir, exact\\) in expensive\\(unsigned long\\) \\(\\+[0-9.]+% itself\\), (9[0-9]|1[0-9][0-9])% of the change \\(self\\), more work"
         "loader/libc row\\(s\\) folded"
  NOT_OUTPUT "on the same GPU"
  JSON "${out}/attribution_ab/matrix.json::confound/rows/0/quantity=ir(expensive(unsigned long))"
       "${out}/attribution_ab/matrix.json::confound/rows/0/verdict=SLOWER"
       "${out}/attribution_ab/matrix.json::confound/summaries/0/cell=head"
       "${out}/attribution_ab/matrix.json::confound/summaries/0/totals/0/family=Ir")

# An A/A through `aorta ab`: nothing moved, and the sentence says SAME with the widest move, never
# SLOWER; the banner says where the threshold came from.
file(GENERATE OUTPUT "${out}/attribution_plain-$<CONFIG>.yaml" CONTENT "schema_version: 1
trials: 1
collect: [callgrind]
")
aorta_cli_test(attribution.same_build_says_same RC 0 TIMEOUT 300
  CLEAN "${out}/attribution_aa"
  COMMAND "${aorta}" ab --recipe "${out}/attribution_plain-$<CONFIG>.yaml" --output "${out}/attribution_aa"
          --base "${ab_work}" --head "${ab_work}" --trials 1
  OUTPUT "threshold 1\\.05 \\(aorta ab's default; sweep run's is the original aorta's 1\\.15\\)"
         "aorta: summary: head is SAME as base within the threshold 5%; [0-9]+ other row\\(s\\) within ±0\\.[0-9]%"
  NOT_OUTPUT "SLOWER \\(")

# Only the time moved (same instructions, a longer sleep: the stand-in for a throttled clock or a
# busy neighbour; 10x, so a loaded CI host cannot hide it): gbench times the benchmark, callgrind
# counts its Ir, and the explanation is
# "same work, slower".
find_package(benchmark CONFIG QUIET)
if(benchmark_FOUND)
  add_executable(aorta_cli_ab_sleep_bench ab_sleep_bench.cpp)
  target_link_libraries(aorta_cli_ab_sleep_bench PRIVATE aorta_warnings benchmark::benchmark)
  target_compile_options(aorta_cli_ab_sleep_bench PRIVATE $<$<CXX_COMPILER_ID:GNU,Clang>:-fno-sanitize=all>)
  target_link_options(aorta_cli_ab_sleep_bench PRIVATE $<$<CXX_COMPILER_ID:GNU,Clang>:-fno-sanitize=all>)
  file(GENERATE OUTPUT "${out}/attribution_sleep-$<CONFIG>.yaml" CONTENT "schema_version: 1
trials: 5
collect: [gbench, callgrind]
mitigations:
  base: {env: {AB_SLEEP_US: '2000'}}
  head: {env: {AB_SLEEP_US: '20000'}}
mitigation_axis: [base, head]
confound: {baseline_cell: base, threshold: 1.05}
")
  aorta_cli_test(attribution.same_work_slower RC 0 TIMEOUT 300
    CLEAN "${out}/attribution_sleep"
    COMMAND "${aorta}" sweep run --recipe "${out}/attribution_sleep-$<CONFIG>.yaml"
            --output "${out}/attribution_sleep" --seed 43 -- "$<TARGET_FILE:aorta_cli_ab_sleep_bench>"
    OUTPUT "head +base +time_ms\\(BM_wait[^\n]+SLOWER +same work, slower \\(total Ir [-+]0\\.[0-9]+%\\)"
           "aorta: summary: head is [0-9.]+% slower \\[\\+[0-9.]+%, \\+[0-9.]+%\\] than base \\(total kernel time\\) in BM_wait[^\n]*, 100% of the change, same work, slower")
endif()

# `aorta diff` on the callgrind captures of that run: expensive() leads with its self share.
aorta_cli_test(diff.callgrind RC 0
  COMMAND "${aorta}" diff "${out}/attribution_ab/base/trial_0/callgrind"
          "${out}/attribution_ab/head/trial_0/callgrind"
  OUTPUT "aorta: diff \\(callgrind\\)" "total Ir: [0-9]+ -> [0-9]+ \\(\\+[0-9.]+%\\)"
         "kind +name[^\n]*\nfunction +expensive\\(unsigned long\\) +[0-9]+ +[0-9]+ +\\+10\\.00% +100% self\nfunction +main +[0-9]+ +[0-9]+ +\\+[0-9.]+% +0% self\n"
         "loader/libc row\\(s\\) folded")
set_tests_properties(aorta.cli.attribution.one_function_more_work PROPERTIES FIXTURES_SETUP attribution_ab)
set_tests_properties(aorta.cli.diff.callgrind PROPERTIES FIXTURES_REQUIRED attribution_ab)
