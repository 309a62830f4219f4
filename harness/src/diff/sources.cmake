# Sources of the diff area (target_sources on aorta_harness): `aorta diff`, the change between two
# captures of one profiler, culprit first.
target_sources(aorta_harness PRIVATE
  ${CMAKE_CURRENT_SOURCE_DIR}/src/diff/capture_diff.cpp)
target_sources(aorta_harness PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/src/diff/diff_flame_graph.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/diff/diff_capture_reading.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/diff/frame_path.cpp)
