# The ncu collector (target_sources on aorta_harness).
target_sources(aorta_harness PRIVATE
  ${CMAKE_CURRENT_SOURCE_DIR}/src/collectors/ncu/ncu_options.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/collectors/ncu/ncu_wrap.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/collectors/ncu/ncu_collector.cpp)
