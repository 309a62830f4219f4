# Sources of the sweep area (target_sources on aorta_harness).
target_sources(aorta_harness PRIVATE
  ${CMAKE_CURRENT_SOURCE_DIR}/src/sweep/sweep.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/sweep/run_summary.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/sweep/collector_availability.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/sweep/trial_runner.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/sweep/rank_trial.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/sweep/trial_console.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/sweep/exit_verdict.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/sweep/refused_run.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/sweep/usage_error_line.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/sweep/capture_watch.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/sweep/gpu_assignment.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/sweep/output_lock.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/sweep/tool_versions.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/sweep/cell_sweep.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/sweep/trial_recipes.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/sweep/cell_gate_refusal.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/sweep/confound_policy.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/sweep/cell_run_files.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/sweep/checked_recipe.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/sweep/gate_run.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/sweep/gate_baseline.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/sweep/confound_choice.cpp)
