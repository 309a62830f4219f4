# Sources of the bisect area (target_sources on aorta_harness): `aorta bisect` walks a commit range
# with one cells run per step (sweep/cell_sweep.cpp does the interleaving and the judging).
target_sources(aorta_harness PRIVATE
  ${CMAKE_CURRENT_SOURCE_DIR}/src/bisect/git_repository.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/bisect/bisect_record.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/bisect/bisect_step.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/bisect/bisect_report.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/bisect/bisect_run.cpp)
