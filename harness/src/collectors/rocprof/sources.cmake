# The rocprof collector (target_sources on aorta_harness).
target_sources(aorta_harness PRIVATE
  ${CMAKE_CURRENT_SOURCE_DIR}/src/collectors/rocprof/rocprof_options.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/collectors/rocprof/rocprof_wrap.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/collectors/rocprof/rocprof_collector.cpp)
