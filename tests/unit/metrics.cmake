# Unit tests of the metrics area: aorta_add_unit_test(<stem> SOURCES unit/<file>.cpp ...).
aorta_add_unit_test(metrics SOURCES unit/metrics_test.cpp unit/sorted_merge_test.cpp
  unit/quantity_table_test.cpp unit/ctest_measurement_test.cpp)
aorta_add_unit_test(check SOURCES unit/check_test.cpp unit/check_absent_test.cpp)
# calls() and self_ir() of callgrind functions (issue 23, item 8)
aorta_add_unit_test(function_check SOURCES unit/function_check_test.cpp)
# samples() and stalls() of PC samples (issue 45, item 2)
aorta_add_unit_test(pc_sample_check SOURCES unit/pc_sample_check_test.cpp)
aorta_add_unit_test(scope_check SOURCES unit/scope_check_test.cpp unit/plain_frame_paths_test.cpp)
aorta_add_unit_test(report SOURCES unit/report_test.cpp unit/report_input_test.cpp
  unit/report_gate_verdict_test.cpp)
# `aorta report` carries what a cells sweep wrote in matrix.json into report.json, never writing it
aorta_add_unit_test(report_sweep_matrix SOURCES unit/report_sweep_matrix_test.cpp)
# hostile inputs (issue 10): regex engine, JSON limits, scanners and terminal output
aorta_add_unit_test(hostile_inputs SOURCES
  unit/name_regex_test.cpp
  unit/json_text_test.cpp
  unit/hostile_limits_test.cpp)
# the one trimming rule every parser uses (harness/src/text_trim.hpp)
aorta_add_unit_test(text_trim SOURCES unit/text_trim_test.cpp)
aorta_add_unit_test(display_names SOURCES unit/display_names_test.cpp)
