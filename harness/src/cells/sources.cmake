# Sources of the cells area (target_sources on aorta_harness): the recipe's mitigation x
# diagnostic matrix, its interleaved schedule, paired confound verdicts and matrix reports.
target_sources(aorta_harness PRIVATE
  ${CMAKE_CURRENT_SOURCE_DIR}/src/cells/cell_plan.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/cells/signed_rank.cpp)
target_sources(aorta_harness PRIVATE
  ${CMAKE_CURRENT_SOURCE_DIR}/src/cells/interleave.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/cells/confound.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/cells/matrix_report.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/cells/cell_sweep.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/cells/ab_cells.cpp)
