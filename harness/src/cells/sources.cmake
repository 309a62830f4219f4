# Sources of the cells area (target_sources on aorta_harness): the interleaved schedule of a
# recipe's cells (recipe/cell_plan.hpp), their paired confound verdicts and matrix reports. The sweep
# over cells is sweep/cell_sweep.cpp.
target_sources(aorta_harness PRIVATE
  ${CMAKE_CURRENT_SOURCE_DIR}/src/cells/signed_rank.cpp)
target_sources(aorta_harness PRIVATE
  ${CMAKE_CURRENT_SOURCE_DIR}/src/cells/interleave.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/cells/confound.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/cells/confound_attribution.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/cells/confound_summary.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/cells/confound_paths.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/cells/matrix_report.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/cells/matrix_checks.cpp)
