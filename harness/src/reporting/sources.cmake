# Sources of the reporting area (target_sources on aorta_harness).
target_sources(aorta_harness PRIVATE
  ${CMAKE_CURRENT_SOURCE_DIR}/src/reporting/console_reporter.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/reporting/ctest_reporter.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/reporting/event_recorder.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/reporting/jsonl_reporter.cpp)
