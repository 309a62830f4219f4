# Unit tests of the baseline area (baselines, gate rule, gate spec, check grammar's baseline form).
aorta_add_unit_test(baseline_gate SOURCES unit/baseline_gate_test.cpp unit/gate_report_test.cpp)
aorta_add_unit_test(baseline_file SOURCES unit/baseline_file_test.cpp)
aorta_add_unit_test(baseline_hostile SOURCES unit/baseline_hostile_test.cpp)
aorta_add_unit_test(gate_defects SOURCES unit/gate_defects_test.cpp)
aorta_add_unit_test(gate_simulation SOURCES unit/gate_simulation_test.cpp LABELS stats)
# Issue 39's gate-power replay: false alarms and power through the aorta compare binary and the
# shared judge, fixed seeds.
aorta_add_unit_test(gate_power_replay SOURCES unit/gate_power_replay_test.cpp LABELS stats)
target_compile_definitions(aorta.test.gate_power_replay PRIVATE AORTA_BINARY="$<TARGET_FILE:aorta>")
add_dependencies(aorta.test.gate_power_replay aorta)
# The timed-row rule: estimate past the bound, Welch past the margin, Yuen on an outlier.
aorta_add_unit_test(gate_margin SOURCES unit/gate_margin_test.cpp)
# Timed rows over process modes: judged within and between the modes.
aorta_add_unit_test(gate_modes SOURCES unit/gate_modes_test.cpp)
aorta_add_unit_test(gate_sequential_run SOURCES unit/gate_sequential_run_test.cpp)
# compare and the gated run judge through one function: the same rows, the same verdicts (runs
# the aorta binary for compare).
aorta_add_unit_test(gate_compare_agree SOURCES unit/gate_compare_agree_test.cpp)
target_compile_definitions(aorta.test.gate_compare_agree PRIVATE AORTA_BINARY="$<TARGET_FILE:aorta>")
add_dependencies(aorta.test.gate_compare_agree aorta)
# The noise floor of a timed row's tolerance (gate line `floor`).
aorta_add_unit_test(gate_noise_floor SOURCES unit/gate_noise_floor_test.cpp)
# The ncu counter gate on real H200 captures: baseline record + compare through the aorta binary.
aorta_add_unit_test(ncu_gate SOURCES unit/ncu_gate_test.cpp)
target_compile_definitions(aorta.test.ncu_gate PRIVATE AORTA_BINARY="$<TARGET_FILE:aorta>")
add_dependencies(aorta.test.ncu_gate aorta)
# PC-sample shares in the gate (issue 45): the chi-square rows on the real H100 capture, through
# baseline record and compare (runs the aorta binary).
aorta_add_unit_test(pc_sample_gate SOURCES unit/pc_sample_gate_test.cpp)
target_compile_definitions(aorta.test.pc_sample_gate PRIVATE AORTA_BINARY="$<TARGET_FILE:aorta>")
add_dependencies(aorta.test.pc_sample_gate aorta)
aorta_add_unit_test(rank_gate SOURCES unit/rank_gate_test.cpp)
# Ranks sharing a card: the timed straggler check and gate item refuse them unless serialized.
aorta_add_unit_test(shared_card SOURCES unit/shared_card_test.cpp)
# Issue 39, multi-modal timing in the gate: seeded two-mode processes through `aorta compare` and
# judge_gate, fixed seeds.
aorta_add_unit_test(gate_modes_replay SOURCES unit/gate_modes_replay_test.cpp LABELS stats)
target_compile_definitions(aorta.test.gate_modes_replay PRIVATE AORTA_BINARY="$<TARGET_FILE:aorta>")
add_dependencies(aorta.test.gate_modes_replay aorta)
