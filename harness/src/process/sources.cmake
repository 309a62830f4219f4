# Sources of the process area (target_sources on aorta_harness).
target_sources(aorta_harness PRIVATE
  ${CMAKE_CURRENT_SOURCE_DIR}/src/process/child_group.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/process/descendants.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/process/executable_lookup.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/process/group_keeper.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/process/output_pump.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/process/private_temp_dir.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/process/process_result.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/process/run_process.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/process/signal_forwarding.cpp)
