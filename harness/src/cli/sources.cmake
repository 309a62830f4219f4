# Sources of the aorta executable (target_sources on aorta).
target_sources(aorta PRIVATE
  ${CMAKE_CURRENT_SOURCE_DIR}/src/cli/main.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/cli/sweep_command.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/cli/ab_command.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/cli/bisect_command.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/cli/console_flags.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/cli/command_words.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/cli/calibrate_command.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/cli/rank_exec_command.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/cli/inspect_commands.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/cli/check_scope.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/cli/view_command.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/cli/diff_command.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/cli/baseline_commands.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/cli/compare_command.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/cli/collectors_command.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/cli/history_commands.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/cli/history_views.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/cli/history_baseline_option.cpp)
