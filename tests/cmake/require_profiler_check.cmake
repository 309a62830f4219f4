# Proves AORTA_REQUIRE_PROFILER: the consumer's GPU test is Skipped on a machine without a GPU
# profiler, and the very same run fails once AORTA_REQUIRE_PROFILER=ON.
#   cmake -DCONSUMER_SOURCE=... -DBINARY=... -DPREFIX=... -DGENERATOR=... [-DCOMPILER=...]
#         [-DLAUNCHER=...] -P require_profiler_check.cmake
# Exits 77 (the test's SKIP_RETURN_CODE) on a machine that has a GPU driver: there the missing
# hardware this proof needs is not missing.
foreach(node /dev/nvidiactl /dev/kfd)
  if(EXISTS "${node}")
    message("require_profiler_check: ${node} exists; this proof needs a machine without a GPU")
    cmake_language(EXIT 77)
  endif()
endforeach()

set(configure_args -G "${GENERATOR}" -DCMAKE_PREFIX_PATH=${PREFIX} -DCONSUMER_GPU_TEST=ON)
if(COMPILER)
  list(APPEND configure_args -DCMAKE_CXX_COMPILER=${COMPILER})
endif()
if(LAUNCHER)
  list(APPEND configure_args -DCMAKE_CXX_COMPILER_LAUNCHER=${LAUNCHER})
endif()

function(run_step what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  set(step_rc "${rc}" PARENT_SCOPE)
  set(step_out "${out}" PARENT_SCOPE)
  if(NOT what STREQUAL "ctest" AND NOT rc EQUAL 0)
    message(FATAL_ERROR "require_profiler_check: ${what} failed (${rc}):\n${out}")
  endif()
endfunction()

foreach(required OFF ON)
  run_step(configure ${CMAKE_COMMAND} --fresh -S ${CONSUMER_SOURCE} -B ${BINARY}
    ${configure_args} -DAORTA_REQUIRE_PROFILER=${required})
  run_step(build ${CMAKE_COMMAND} --build ${BINARY})
  run_step(ctest ${CMAKE_CTEST_COMMAND} --test-dir ${BINARY} -R consumer.needs_gpu
    --output-on-failure --no-tests=error)
  if(required STREQUAL "OFF")
    if(NOT step_rc EQUAL 0 OR NOT step_out MATCHES "Skipped")
      message(FATAL_ERROR "require_profiler_check: without AORTA_REQUIRE_PROFILER the GPU test "
                          "should be Skipped (ctest exit 0), got exit ${step_rc}:\n${step_out}")
    endif()
  else()
    if(step_rc EQUAL 0 OR NOT step_out MATCHES "required profiler unavailable: ncu")
      message(FATAL_ERROR "require_profiler_check: with AORTA_REQUIRE_PROFILER=ON the GPU test "
                          "must fail naming the missing profiler, got exit ${step_rc}:\n${step_out}")
    endif()
  endif()
  message("require_profiler_check: AORTA_REQUIRE_PROFILER=${required}: as expected")
endforeach()
