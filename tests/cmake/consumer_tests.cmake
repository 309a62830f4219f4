# Consumer proofs, each a fixture chain so `ctest -R <last step>` pulls in the steps before it:
#   installed:    install this build into a prefix -> configure the consumer with
#                 CMAKE_PREFIX_PATH -> build -> ctest -L profiling in the consumer
#   subdirectory: configure the consumer with -DAORTA_SOURCE_DIR -> build -> ctest -L profiling
# Each configure is --fresh (no cache left from an earlier run). The consumer runs with
# AORTA_REQUIRE_PROFILER=ON, so a missing valgrind fails instead of silently skipping.
#
# The subdirectory chain compiles all of aorta once more, the longest step of the whole suite on a
# 2-core machine (1,123 s measured, issue 23). Built through a compiler launcher (ci/test.sh uses
# ccache) and without unity batches, it compiles with exactly this build's flags, so every object
# is a cache hit and the step proves the configure, build and link of the route in about a minute;
# otherwise it builds without optimisation or debug info, which halves the cost. Every step of both chains
# carries a COST so CTest starts them first and the other tests fill the second core meanwhile.
set(consumer_cost 1000)

set(consumer_source "${CMAKE_CURRENT_SOURCE_DIR}/consumer")
set(consumer_prefix "${CMAKE_BINARY_DIR}/consumer-prefix")
set(consumer_common_args
  -G "${CMAKE_GENERATOR}"
  -DCMAKE_CXX_COMPILER=${CMAKE_CXX_COMPILER}
  -DAORTA_REQUIRE_PROFILER=ON)
if(CMAKE_BUILD_TYPE)
  list(APPEND consumer_common_args -DCMAKE_BUILD_TYPE=${CMAKE_BUILD_TYPE})
endif()
if(CMAKE_CXX_COMPILER_LAUNCHER)
  list(APPEND consumer_common_args -DCMAKE_CXX_COMPILER_LAUNCHER=${CMAKE_CXX_COMPILER_LAUNCHER})
endif()

add_test(NAME aorta.cmake.install
  COMMAND ${CMAKE_COMMAND}
    -DBUILD_DIR=${PROJECT_BINARY_DIR}
    -DPREFIX=${consumer_prefix}
    -DCONFIG=$<CONFIG>
    -DPROJECT_SOURCE_DIR=${PROJECT_SOURCE_DIR}
    -P ${CMAKE_CURRENT_SOURCE_DIR}/install_check.cmake)
set_tests_properties(aorta.cmake.install PROPERTIES
  LABELS packaging
  TIMEOUT 300
  COST ${consumer_cost}
  FIXTURES_SETUP aorta_consumer_prefix)

# aorta_add_consumer_chain(<mode> <fixtures the configure step needs> <configure args>...)
function(aorta_add_consumer_chain mode required_fixtures)
  set(binary "${work}/consumer-${mode}")
  set(prefix aorta.cmake.consumer.${mode})
  set(configured aorta_consumer_${mode}_configured)
  set(built aorta_consumer_${mode}_built)
  set(before_build ${required_fixtures} ${configured})
  set(before_test ${before_build} ${built})

  add_test(NAME ${prefix}.configure
    COMMAND ${CMAKE_COMMAND} --fresh -S ${consumer_source} -B ${binary}
      ${consumer_common_args} ${ARGN})
  set_tests_properties(${prefix}.configure PROPERTIES
    LABELS packaging
    TIMEOUT 300
    COST ${consumer_cost}
    FIXTURES_SETUP ${configured})
  if(required_fixtures)
    set_tests_properties(${prefix}.configure PROPERTIES FIXTURES_REQUIRED "${required_fixtures}")
  endif()

  # aorta_profiled_tests, not all: the .test step then proves that it builds what the profiled
  # test runs (aorta in the subdirectory case, and the TARGET payload); uses_harness is the
  # link proof; every_installed_header compiles each installed header alone.
  add_test(NAME ${prefix}.build
    COMMAND ${CMAKE_COMMAND} --build ${binary} --config $<CONFIG>
      --target aorta_profiled_tests uses_harness every_installed_header)
  set_tests_properties(${prefix}.build PROPERTIES
    LABELS packaging
    TIMEOUT 1800
    COST ${consumer_cost}
    FIXTURES_REQUIRED "${before_build}"
    FIXTURES_SETUP ${built})

  add_test(NAME ${prefix}.test
    COMMAND ${CMAKE_CTEST_COMMAND} --test-dir ${binary} -C $<CONFIG>
      -L profiling --output-on-failure --no-tests=error)
  set_tests_properties(${prefix}.test PROPERTIES
    LABELS packaging
    TIMEOUT 900
    COST ${consumer_cost}
    FIXTURES_REQUIRED "${before_test}")
endfunction()

aorta_add_consumer_chain(installed aorta_consumer_prefix
  -DCMAKE_PREFIX_PATH=${consumer_prefix})

# The verdict survives CTest's JUnit cut of a passing test's output at 1024 bytes.
add_test(NAME aorta.cmake.consumer.installed.junit
  COMMAND ${CMAKE_COMMAND} -DBINARY=${work}/consumer-installed -DCTEST=${CMAKE_CTEST_COMMAND}
    -DCONFIG=$<CONFIG> -P ${CMAKE_CURRENT_SOURCE_DIR}/junit_check.cmake)
set_tests_properties(aorta.cmake.consumer.installed.junit PROPERTIES
  LABELS packaging
  TIMEOUT 300
  FIXTURES_REQUIRED
    "aorta_consumer_prefix;aorta_consumer_installed_configured;aorta_consumer_installed_built")
# A unity build's batch files live in each build directory, so the consumer's batches never hit
# the cache of this build's: with AORTA_UNITY_BUILD it builds without optimisation instead, in
# one batch per target.
if(CMAKE_CXX_COMPILER_LAUNCHER AND NOT AORTA_UNITY_BUILD)
  string(TOUPPER "${CMAKE_BUILD_TYPE}" build_type_upper)
  set(subdirectory_flags
    -DAORTA_ENABLE_WERROR=${AORTA_ENABLE_WERROR}
    "-DCMAKE_CXX_FLAGS=${CMAKE_CXX_FLAGS}")
  if(build_type_upper)
    list(APPEND subdirectory_flags
      "-DCMAKE_CXX_FLAGS_${build_type_upper}=${CMAKE_CXX_FLAGS_${build_type_upper}}")
  endif()
else()
  # And in one unity batch per target: this build runs on one core beside the other tests, so
  # batches buy it no parallelism, and each paid the parse of the shared headers again (2-core
  # VM, gcc 12: 195 CPU-s in batches of 12, 105 CPU-s in one, at 1.9 GB peak).
  set(subdirectory_flags -DCMAKE_BUILD_TYPE= -DAORTA_UNITY_BATCH_SIZE=0)
endif()
aorta_add_consumer_chain(subdirectory ""
  -DAORTA_SOURCE_DIR=${PROJECT_SOURCE_DIR} ${subdirectory_flags})

# AORTA_REQUIRE_PROFILER: the same GPU test skips without it and fails with it (CPU machines).
add_test(NAME aorta.cmake.consumer.require_profiler
  COMMAND ${CMAKE_COMMAND}
    -DCONSUMER_SOURCE=${consumer_source}
    -DBINARY=${work}/consumer-require-profiler
    -DPREFIX=${consumer_prefix}
    "-DGENERATOR=${CMAKE_GENERATOR}"
    -DCOMPILER=${CMAKE_CXX_COMPILER}
    -DLAUNCHER=${CMAKE_CXX_COMPILER_LAUNCHER}
    -P ${CMAKE_CURRENT_SOURCE_DIR}/require_profiler_check.cmake)
set_tests_properties(aorta.cmake.consumer.require_profiler PROPERTIES
  LABELS packaging
  TIMEOUT 1800
  SKIP_RETURN_CODE 77
  FIXTURES_REQUIRED aorta_consumer_prefix)

# AORTA_HISTORY_STORE: two ctest runs of the installed consumer add two runs to the store.
add_test(NAME aorta.cmake.consumer.history
  COMMAND ${CMAKE_COMMAND}
    -DCONSUMER_SOURCE=${consumer_source}
    -DBINARY=${work}/consumer-history
    -DPREFIX=${consumer_prefix}
    "-DGENERATOR=${CMAKE_GENERATOR}"
    -DCOMPILER=${CMAKE_CXX_COMPILER}
    -DLAUNCHER=${CMAKE_CXX_COMPILER_LAUNCHER}
    -DAORTA=$<TARGET_FILE:aorta>
    -P ${CMAKE_CURRENT_SOURCE_DIR}/history_check.cmake)
set_tests_properties(aorta.cmake.consumer.history PROPERTIES
  LABELS packaging
  TIMEOUT 900
  SKIP_RETURN_CODE 77
  FIXTURES_REQUIRED aorta_consumer_prefix)

# A gate row AMBIGUOUS at the budget in CTest's JUnit file: a failure naming it by default, a
# skipped test naming it under 'ambiguous skip'.
add_test(NAME aorta.cmake.consumer.ambiguous_junit
  COMMAND ${CMAKE_COMMAND}
    -DFIXTURE=${PROJECT_SOURCE_DIR}/tests/fixtures/gate-ambiguous
    -DBINARY=${work}/consumer-ambiguous-junit
    -DPREFIX=${consumer_prefix}
    "-DGENERATOR=${CMAKE_GENERATOR}"
    -DCOMPILER=${CMAKE_CXX_COMPILER}
    -DLAUNCHER=${CMAKE_CXX_COMPILER_LAUNCHER}
    -DAORTA=$<TARGET_FILE:aorta>
    -P ${CMAKE_CURRENT_SOURCE_DIR}/ambiguous_junit_check.cmake)
set_tests_properties(aorta.cmake.consumer.ambiguous_junit PROPERTIES
  LABELS packaging
  TIMEOUT 600
  FIXTURES_REQUIRED aorta_consumer_prefix)

# A consumer of `project(x NONE)` (no compiler: it runs prebuilt programs) finds the installed
# package and runs its profiled test; the package searched for yaml-cpp, which CMake cannot find
# without a language (issue 46).
add_test(NAME aorta.cmake.consumer.no_language.configure
  COMMAND ${CMAKE_COMMAND} --fresh -S ${CMAKE_CURRENT_SOURCE_DIR}/consumer_none
    -B ${work}/consumer-none -G "${CMAKE_GENERATOR}" -DCMAKE_PREFIX_PATH=${consumer_prefix})
set_tests_properties(aorta.cmake.consumer.no_language.configure PROPERTIES
  LABELS packaging
  TIMEOUT 300
  FIXTURES_REQUIRED aorta_consumer_prefix
  FIXTURES_SETUP aorta_consumer_none_configured)
add_test(NAME aorta.cmake.consumer.no_language.test
  COMMAND ${CMAKE_CTEST_COMMAND} --test-dir ${work}/consumer-none -C $<CONFIG>
    -L profiling --output-on-failure --no-tests=error)
set_tests_properties(aorta.cmake.consumer.no_language.test PROPERTIES
  LABELS packaging
  TIMEOUT 300
  FIXTURES_REQUIRED "aorta_consumer_prefix;aorta_consumer_none_configured")
