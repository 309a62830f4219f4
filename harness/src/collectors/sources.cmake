# Sources of the collectors area (target_sources on aorta_harness).
target_sources(aorta_harness PRIVATE
  # options: parsing and the guards of reference §2
  ${CMAKE_CURRENT_SOURCE_DIR}/src/collectors/option_text.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/collectors/validation.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/collectors/rocprof_options.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/collectors/proton_options.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/collectors/ncu_options.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/collectors/callgrind_options.cpp
  # wraps
  ${CMAKE_CURRENT_SOURCE_DIR}/src/collectors/executable_lookup.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/collectors/rocprof_wrap.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/collectors/ncu_wrap.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/collectors/callgrind_wrap.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/collectors/proton_command.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/collectors/proton_wrap.cpp
  # platforms a collector captures on (AORTA_LANE_PLATFORMS)
  ${CMAKE_CURRENT_SOURCE_DIR}/src/collectors/platform.cpp
  # the registry: collector classes, plan_launch
  ${CMAKE_CURRENT_SOURCE_DIR}/src/collectors/registry.cpp)
# One folder per collector (issue 8): each lists its own sources.
include(${CMAKE_CURRENT_SOURCE_DIR}/src/collectors/sanitizer/sources.cmake)
