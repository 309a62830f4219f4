# The gbench collector (target_sources on aorta_harness).
target_sources(aorta_harness PRIVATE
  ${CMAKE_CURRENT_SOURCE_DIR}/src/collectors/gbench/gbench_options.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/collectors/gbench/gbench_wrap.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/collectors/gbench/gbench_collector.cpp)
