# Sources of the metrics area (target_sources on aorta_harness).
# Private headers: metrics/number_format.hpp, metrics/report_model.hpp,
# metrics/metric_selection.hpp, metrics/display_names.hpp, metrics/report_html_parts.hpp.
target_sources(aorta_harness PRIVATE
  ${CMAKE_CURRENT_SOURCE_DIR}/src/metrics/number_format.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/metrics/metrics.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/metrics/display_names.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/metrics/metrics_table.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/metrics/name_regex.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/metrics/check_parser.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/metrics/check_evaluate.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/metrics/scope_path.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/metrics/scope_checks.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/metrics/metric_selection.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/metrics/report_aggregate.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/metrics/report_markdown.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/metrics/report_html.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/metrics/report_html_cell.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/metrics/report_svg.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/metrics/report_rank_table.cpp)
