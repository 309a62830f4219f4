# The callgrind collector (target_sources on aorta_harness).
target_sources(aorta_harness PRIVATE
  ${CMAKE_CURRENT_SOURCE_DIR}/src/collectors/callgrind/callgrind_options.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/collectors/callgrind/callgrind_wrap.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/collectors/callgrind/callgrind_collector.cpp)
