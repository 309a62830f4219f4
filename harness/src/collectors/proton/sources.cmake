# The proton collector (target_sources on aorta_harness).
target_sources(aorta_harness PRIVATE
  ${CMAKE_CURRENT_SOURCE_DIR}/src/collectors/proton/proton_options.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/collectors/proton/proton_wrap.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/collectors/proton/proton_command.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/collectors/proton/proton_collector.cpp)
