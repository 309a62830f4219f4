# Sources of the collectors area (target_sources on aorta_harness): what the collectors share, the
# registry, and one folder per collector.
target_sources(aorta_harness PRIVATE
  ${CMAKE_CURRENT_SOURCE_DIR}/src/collectors/validation.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/collectors/executable_lookup.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/collectors/collector_support.cpp
  # the one place a capture is read, by its collector's rules
  ${CMAKE_CURRENT_SOURCE_DIR}/src/collectors/capture_reading.cpp
  # which collector wrote a file, asked of each collector
  ${CMAKE_CURRENT_SOURCE_DIR}/src/collectors/format_detection.cpp
  # the one list of collectors, plan_launch
  ${CMAKE_CURRENT_SOURCE_DIR}/src/collectors/registry.cpp)
# Every folder is a collector's (tests/unit/registry_folders_test.cpp holds them to the registry).
file(GLOB collector_folders LIST_DIRECTORIES true CONFIGURE_DEPENDS
  "${CMAKE_CURRENT_SOURCE_DIR}/src/collectors/*")
foreach(folder IN LISTS collector_folders)
  if(IS_DIRECTORY "${folder}")
    include("${folder}/sources.cmake")
  endif()
endforeach()
