# Sources of the collectors area (target_sources on aorta_harness).
target_sources(aorta_harness PRIVATE
  ${CMAKE_CURRENT_SOURCE_DIR}/src/collectors/executable_lookup.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/collectors/rocprof_wrap.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/collectors/ncu_wrap.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/collectors/callgrind_wrap.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/collectors/proton_command.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/collectors/proton_wrap.cpp)
target_sources(aorta_harness PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/src/collectors/registry.cpp)
