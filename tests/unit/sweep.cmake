# Unit tests of the sweep area: aorta_add_unit_test(<stem> SOURCES unit/<file>.cpp ...).
aorta_add_unit_test(sweep_gpu_assignment SOURCES unit/sweep_gpu_assignment_test.cpp)
aorta_add_unit_test(sweep_trial_dir SOURCES unit/sweep_trial_dir_test.cpp)
aorta_add_unit_test(sweep_empty_capture SOURCES unit/sweep_empty_capture_test.cpp)
aorta_add_unit_test(sweep_capture_watch SOURCES unit/sweep_capture_watch_test.cpp)
# Whole-file writes: exclusive, no-follow temporary files (issue 18).
aorta_add_unit_test(sweep_atomic_file SOURCES unit/atomic_file_test.cpp)
# result.json and check --json written row by row, byte-identical to the DOM's text (issue 21).
aorta_add_unit_test(record_result_writer SOURCES unit/result_writer_test.cpp
  unit/json_pretty_writer_test.cpp unit/result_reader_test.cpp)
# The rules that decide a trial's verdict, in one place (record/verdict_rules, issue 40).
aorta_add_unit_test(record_verdict_rules SOURCES unit/verdict_rules_test.cpp)
aorta_add_unit_test(sweep_trial_console SOURCES unit/sweep_trial_console_test.cpp)
