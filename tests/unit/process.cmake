# Unit tests of the process area: aorta_add_unit_test(<stem> SOURCES unit/<file>.cpp ...).
aorta_add_unit_test(process SOURCES unit/process_test.cpp unit/process_launch_test.cpp
  unit/process_result_test.cpp unit/process_lifetime_test.cpp)
