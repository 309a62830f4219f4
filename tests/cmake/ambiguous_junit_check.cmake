# Proves that a gate row still AMBIGUOUS at the trial budget reaches CTest's JUnit file, under the
# default policy (a failed test whose failure names the row) and under 'ambiguous skip' (a skipped
# test, the row named in its output). A generated consumer of the installed package runs the
# known-sample series of tests/fixtures/gate-ambiguous under a real ctest --output-junit.
#   cmake -DFIXTURE=... -DBINARY=... -DPREFIX=... -DGENERATOR=... -DAORTA=<aorta>
#         [-DCOMPILER=...] [-DLAUNCHER=...] -P ambiguous_junit_check.cmake
function(run_step what expected_rc)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(NOT rc EQUAL expected_rc)
    message(FATAL_ERROR "ambiguous_junit_check: ${what} exited ${rc}, expected ${expected_rc}:\n${out}")
  endif()
  set(step_out "${out}" PARENT_SCOPE)
endfunction()

# The test case's record in the JUnit file: its <testcase ...> element up to its end.
function(junit_case xml name out_var)
  string(FIND "${xml}" "name=\"${name}\"" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "ambiguous_junit_check: the JUnit file has no test case ${name}:\n${xml}")
  endif()
  string(SUBSTRING "${xml}" ${at} -1 from_test)
  string(FIND "${from_test}" "</testcase>" end)
  string(SUBSTRING "${from_test}" 0 ${end} test_case)
  set(${out_var} "${test_case}" PARENT_SCOPE)
endfunction()

set(source "${BINARY}/src")
set(build "${BINARY}/build")
set(baselines "${BINARY}/baselines")
file(REMOVE_RECURSE "${BINARY}")
file(MAKE_DIRECTORY "${source}" "${baselines}")

# One baseline per test name, recorded from the fixture's base series.
foreach(test ambiguous.default ambiguous.skip)
  run_step("sweep run of ${test}'s baseline" 0 ${AORTA} sweep run --recipe ${FIXTURE}/recipe.yaml
    --output ${BINARY}/base/${test} -- sh ${FIXTURE}/series_benchmark.sh ${FIXTURE}/base.txt
    ${BINARY}/base-${test}.count)
  run_step("baseline record of ${test}" 0 ${AORTA} baseline record ${BINARY}/base/${test}
    --into ${baselines})
endforeach()

file(WRITE "${source}/CMakeLists.txt" "cmake_minimum_required(VERSION 3.25)
project(ambiguous_junit LANGUAGES CXX)
find_package(Aorta REQUIRED)
enable_testing()
set(gate \"time +5%, alpha 0.0001, max_trials 5\")
aorta_add_profiled_test(NAME ambiguous.default RECIPE \"${FIXTURE}/recipe.yaml\"
  BASELINE \"${baselines}\" GATE \"\${gate}\"
  COMMAND sh \"${FIXTURE}/series_benchmark.sh\" \"${FIXTURE}/slow.txt\" \"${BINARY}/default.count\")
aorta_add_profiled_test(NAME ambiguous.skip RECIPE \"${FIXTURE}/recipe.yaml\"
  BASELINE \"${baselines}\" GATE \"\${gate}, ambiguous skip\"
  COMMAND sh \"${FIXTURE}/series_benchmark.sh\" \"${FIXTURE}/slow.txt\" \"${BINARY}/skip.count\")
")

set(configure_args -G "${GENERATOR}" -DCMAKE_PREFIX_PATH=${PREFIX})
if(COMPILER)
  list(APPEND configure_args -DCMAKE_CXX_COMPILER=${COMPILER})
endif()
if(LAUNCHER)
  list(APPEND configure_args -DCMAKE_CXX_COMPILER_LAUNCHER=${LAUNCHER})
endif()
run_step(configure 0 ${CMAKE_COMMAND} --fresh -S ${source} -B ${build} ${configure_args})

# One test fails (the default policy) and one is skipped: ctest exits 8.
set(junit "${BINARY}/junit.xml")
run_step("ctest --output-junit" 8 ${CMAKE_CTEST_COMMAND} --test-dir ${build} -R "^ambiguous\\."
  --output-junit ${junit} --no-tests=error)
file(READ "${junit}" xml)

set(budget "gate: 1 row\\(s\\) still AMBIGUOUS after 5 trial\\(s\\) \\(the budget\\)")
junit_case("${xml}" ambiguous.default failed_case)
if(NOT failed_case MATCHES "status=\"fail\"" OR
   NOT failed_case MATCHES "${budget}: ambiguous\\.default: time_ms\\(BM_k\\) \\(ambiguous fail")
  message(FATAL_ERROR "ambiguous_junit_check: the JUnit record of ambiguous.default is not a "
                      "failure naming its AMBIGUOUS row:\n${failed_case}")
endif()
junit_case("${xml}" ambiguous.skip skipped_case)
if(NOT skipped_case MATCHES "status=\"(notrun|skipped)\"" OR
   NOT skipped_case MATCHES "${budget}: ambiguous\\.skip: time_ms\\(BM_k\\) \\(ambiguous skip")
  message(FATAL_ERROR "ambiguous_junit_check: the JUnit record of ambiguous.skip is not a "
                      "skipped test naming its AMBIGUOUS row:\n${skipped_case}")
endif()
message("ambiguous_junit_check: JUnit keeps the AMBIGUOUS row of the failed and the skipped test")
