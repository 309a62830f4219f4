# Sources of the metrics area: a capture's metrics, their names and the selectors checks share
# (target_sources on aorta_harness).
# Private headers: metrics/number_format.hpp, metrics/display_names.hpp, metrics/scope_metrics.hpp,
# metrics/sorted_merge.hpp,
# metrics/quantity_table.hpp, metrics/ctest_measurement.hpp.
target_sources(aorta_harness PRIVATE
  ${CMAKE_CURRENT_SOURCE_DIR}/src/metrics/number_format.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/metrics/metrics.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/metrics/pc_sample_metrics.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/metrics/scope_metrics.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/metrics/sorted_merge.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/metrics/anchor_hint.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/metrics/display_names.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/metrics/metrics_table.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/metrics/name_regex.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/metrics/scope_path.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/metrics/plain_frame_paths.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/metrics/quantity_table.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/metrics/ctest_measurement.cpp)
