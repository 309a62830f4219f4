# Proves AORTA_HISTORY_STORE: with it set, every ctest run's report step adds that run's results
# to the store, at the commit of the project's git checkout, and a second run adds a second run.
# Then BASELINE history:trunk: the last run's results added to the store as commit `c-trunk` of
# a branch `trunk`, and a gated run judged against them, naming that commit.
#   cmake -DCONSUMER_SOURCE=... -DBINARY=... -DPREFIX=... -DGENERATOR=... -DAORTA=<aorta>
#         [-DCOMPILER=...] [-DLAUNCHER=...] -P history_check.cmake
# Exits 77 (the test's SKIP_RETURN_CODE) where the source is not a git checkout (a tarball): the
# report step then has no commit to record, which is this proof's subject.
function(run_step what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "history_check: ${what} failed (${rc}):\n${out}")
  endif()
  set(step_out "${out}" PARENT_SCOPE)
endfunction()

execute_process(COMMAND git rev-parse HEAD WORKING_DIRECTORY "${CONSUMER_SOURCE}"
  RESULT_VARIABLE git_rc OUTPUT_VARIABLE head OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
if(NOT git_rc EQUAL 0)
  message("history_check: ${CONSUMER_SOURCE} is not in a git checkout; nothing to prove here")
  cmake_language(EXIT 77)
endif()

set(configure_args -G "${GENERATOR}" -DCMAKE_PREFIX_PATH=${PREFIX} -DAORTA_REQUIRE_PROFILER=ON
  -DAORTA_HISTORY_STORE=history/h.sqlite)
if(COMPILER)
  list(APPEND configure_args -DCMAKE_CXX_COMPILER=${COMPILER})
endif()
if(LAUNCHER)
  list(APPEND configure_args -DCMAKE_CXX_COMPILER_LAUNCHER=${LAUNCHER})
endif()
# Relative to the build directory, as documented; the folder must exist for SQLite.
set(store "${BINARY}/history/h.sqlite")
file(REMOVE_RECURSE "${BINARY}/history" "${BINARY}/aorta-results")
file(MAKE_DIRECTORY "${BINARY}/history")

run_step(configure ${CMAKE_COMMAND} --fresh -S ${CONSUMER_SOURCE} -B ${BINARY} ${configure_args})
run_step(build ${CMAKE_COMMAND} --build ${BINARY} --target aorta_profiled_tests)

# Each run: the profiled test, the report, then the add, which must name this checkout's HEAD.
# Run 2 rewrites the test's result.json, so its add holds new bytes: a new run, not run 1 again.
string(SUBSTRING "${head}" 0 12 short_head)
foreach(round 1 2)
  run_step("ctest, run ${round}" ${CMAKE_CTEST_COMMAND} --test-dir ${BINARY}
    -R "^consumer\\.hot_paths$" -V --no-tests=error)
  if(NOT step_out MATCHES "aorta_report\\.history[^\n]*\n" OR NOT step_out MATCHES
      "aorta: history: 1 run\\(s\\) of 1 test\\(s\\) added at commit ${head} \\([1-9][0-9]* samples\\) to [^\n]*h\\.sqlite")
    message(FATAL_ERROR "history_check: run ${round}'s report step did not add one run at "
                        "commit ${head} to ${store}:\n${step_out}")
  endif()
endforeach()

# The store itself, read back through aorta: one commit, with the samples of both runs (the
# callgrind recipe has one trial a run, so each series holds two samples, one of each run).
run_step("history show" ${AORTA} history show consumer.hot_paths --history ${store})
if(NOT step_out MATCHES "wall_seconds \\(s\\)\n[^\n]*\n  ${short_head}  [^\n]*  2  ")
  message(FATAL_ERROR "history_check: the store should hold two samples at ${short_head} for "
                      "consumer.hot_paths:\n${step_out}")
endif()
message("history_check: two ctest runs added two runs at ${head}:\n${step_out}")

# BASELINE history:trunk judges the next run against the store's trunk trials (callgrind's Ir is
# exact, so the same payload passes), naming the commit they came from.
run_step("history add to trunk" ${AORTA} history add ${BINARY}/aorta-results --commit c-trunk
  --branch trunk --time 2026-01-01T00:00:00Z --history ${BINARY}/history/trunk.sqlite)
list(APPEND configure_args -DCONSUMER_BASELINE=history:trunk)
list(TRANSFORM configure_args REPLACE "^-DAORTA_HISTORY_STORE=.*" "-DAORTA_HISTORY_STORE=history/trunk.sqlite")
run_step("configure with BASELINE history:trunk" ${CMAKE_COMMAND} -S ${CONSUMER_SOURCE} -B ${BINARY}
  ${configure_args})
run_step("ctest against history" ${CMAKE_CTEST_COMMAND} --test-dir ${BINARY}
  -R "^consumer\\.hot_paths$" -V --no-tests=error)
if(NOT step_out MATCHES "gate against history [^\n]*trunk\\.sqlite, branch trunk: 1 commit\\(s\\) c-trunk"
    OR NOT step_out MATCHES "aorta: gate passed")
  message(FATAL_ERROR "history_check: BASELINE history:trunk did not gate against c-trunk:\n"
                      "${step_out}")
endif()
message("history_check: BASELINE history:trunk gated against c-trunk")
