# Unit tests of the cells area: aorta_add_unit_test(<stem> SOURCES unit/<file>.cpp ...).
aorta_add_unit_test(cells SOURCES
  unit/cells_recipe_test.cpp
  unit/cells_matrix_json_test.cpp
  unit/cells_confound_test.cpp
  unit/cells_attribution_test.cpp
  unit/cells_place_test.cpp
  unit/cell_check_test.cpp
  unit/cells_strict_test.cpp
  unit/process_modes_test.cpp)
# Issue 39, multi-modal timing: seeded replays of two-mode processes through `aorta sweep run`
# (a simulated GEMM payload read by gbench) and through judge_cells.
add_executable(aorta_test_modes_payload unit/modes_payload.cpp)
aorta_add_unit_test(cells_modes_replay SOURCES unit/cells_modes_replay_test.cpp LABELS stats)
target_compile_definitions(aorta.test.cells_modes_replay PRIVATE AORTA_BINARY="$<TARGET_FILE:aorta>"
                           MODES_PAYLOAD="$<TARGET_FILE:aorta_test_modes_payload>")
add_dependencies(aorta.test.cells_modes_replay aorta aorta_test_modes_payload)
