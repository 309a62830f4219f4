# Sources of the record area (target_sources on aorta_harness): the trial record as one stage —
# the trial directory, command.json before the launch and result.json after the verdict, each
# written atomically with its schema (aorta/schema.hpp).
target_sources(aorta_harness PRIVATE
  ${CMAKE_CURRENT_SOURCE_DIR}/src/record/trial_dir.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/record/trial_record.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/record/rank_rows_json.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/record/result_writer.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/record/result_reader.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/record/gate_verdict.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/record/verdict_rules.cpp)
