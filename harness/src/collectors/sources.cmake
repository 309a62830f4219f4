# Sources of the collectors area (target_sources on aorta_harness): what the collectors share, the
# registry, and one folder per collector.
target_sources(aorta_harness PRIVATE
  ${CMAKE_CURRENT_SOURCE_DIR}/src/collectors/option_text.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/collectors/validation.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/collectors/executable_lookup.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/collectors/collector_support.cpp
  # platforms a collector captures on (AORTA_LANE_PLATFORMS)
  ${CMAKE_CURRENT_SOURCE_DIR}/src/collectors/platform.cpp
  # the one list of collectors, plan_launch
  ${CMAKE_CURRENT_SOURCE_DIR}/src/collectors/registry.cpp)
foreach(collector IN ITEMS rocprof ncu sanitizer callgrind proton validated_only)
  include(${CMAKE_CURRENT_SOURCE_DIR}/src/collectors/${collector}/sources.cmake)
endforeach()
