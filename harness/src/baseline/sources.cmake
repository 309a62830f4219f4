# Sources of the baseline area: baselines, the regression gate and compare (target_sources on
# aorta_harness).
target_sources(aorta_harness PRIVATE
  ${CMAKE_CURRENT_SOURCE_DIR}/src/baseline/statistics.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/baseline/welch_p_values.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/baseline/process_modes.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/baseline/gate_modes.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/baseline/calibration.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/baseline/noise_floor.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/baseline/measured_series.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/baseline/baseline_file.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/baseline/gate_rule.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/baseline/pc_sample_gate.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/baseline/sequential_gate.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/baseline/rank_gate.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/baseline/straggler_gate.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/baseline/shared_card.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/baseline/gate_judge.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/baseline/default_gate.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/baseline/card_identity.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/baseline/fingerprint_diff.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/baseline/gate_report.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/baseline/gate_explain.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/baseline/gate_attribution.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/baseline/result_sets.cpp)
