# cmake -DBINARY=<configured and built consumer> -DCTEST=<ctest> -DCONFIG=<config> -P junit_check.cmake
# CTest keeps only the first 1024 bytes of a passing test's output in its JUnit file (and in
# CDash); the check PASS line must be among them, not cut away behind a metric table (issue 11).
set(junit "${BINARY}/junit-first-hour.xml")
file(REMOVE "${junit}")
execute_process(
  COMMAND "${CTEST}" --test-dir "${BINARY}" -C "${CONFIG}" -R "^consumer\\.hot_paths$"
    --output-junit "${junit}"
  RESULT_VARIABLE result OUTPUT_VARIABLE output ERROR_VARIABLE output)
if(NOT result EQUAL 0)
  message(FATAL_ERROR "ctest in the consumer failed (${result}):\n${output}")
endif()
file(READ "${junit}" xml)
string(FIND "${xml}" "name=\"consumer.hot_paths\"" at)
if(at EQUAL -1)
  message(FATAL_ERROR "${junit} has no consumer.hot_paths test case:\n${xml}")
endif()
string(SUBSTRING "${xml}" ${at} -1 from_test)
string(FIND "${from_test}" "</testcase>" end)
string(SUBSTRING "${from_test}" 0 ${end} test_case)
if(NOT test_case MATCHES "check PASS  ir\\(expensive\\) / ir\\(cheap\\) &gt;= 10")
  message(FATAL_ERROR "the JUnit record of consumer.hot_paths lacks its check PASS line:\n"
    "${test_case}")
endif()
message(STATUS "JUnit keeps the check PASS line of consumer.hot_paths")
