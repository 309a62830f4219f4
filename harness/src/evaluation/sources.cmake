# Sources of the evaluation area (target_sources on aorta_harness): the one path from captures to
# a judged trial record, shared by `sweep run` and `aorta check`.
target_sources(aorta_harness PRIVATE
  ${CMAKE_CURRENT_SOURCE_DIR}/src/evaluation/capture_evaluation.cpp)
