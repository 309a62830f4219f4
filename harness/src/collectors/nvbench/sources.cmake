# The nvbench collector (target_sources on aorta_harness).
target_sources(aorta_harness PRIVATE
  ${CMAKE_CURRENT_SOURCE_DIR}/src/collectors/nvbench/nvbench_options.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/collectors/nvbench/nvbench_wrap.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/collectors/nvbench/nvbench_collector.cpp)
