# Unit tests of the baseline area (baselines, gate rule, gate spec, check grammar's baseline form).
aorta_add_unit_test(baseline_gate SOURCES unit/baseline_gate_test.cpp)
aorta_add_unit_test(baseline_file SOURCES unit/baseline_file_test.cpp)
aorta_add_unit_test(baseline_hostile SOURCES unit/baseline_hostile_test.cpp)
aorta_add_unit_test(gate_defects SOURCES unit/gate_defects_test.cpp)
aorta_add_unit_test(gate_simulation SOURCES unit/gate_simulation_test.cpp LABELS stats)
aorta_add_unit_test(gate_sequential_run SOURCES unit/gate_sequential_run_test.cpp)
