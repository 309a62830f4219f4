# Sources of the report area: `aorta report` over many trial records (perf.md, report.json,
# report.html) (target_sources on aorta_harness).
# Private headers: report/report_model.hpp, report/metric_summaries.hpp,
# report/report_html_parts.hpp, report/report_rank_table.hpp, report/report_stragglers.hpp,
# report/report_sweep_matrix.hpp, report/report_flame_graphs.hpp.
target_sources(aorta_harness PRIVATE
  ${CMAKE_CURRENT_SOURCE_DIR}/src/report/report_aggregate.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/report/report_gate_verdicts.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/report/metric_summaries.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/report/cell_digest.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/report/report_kernel_rows.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/report/report_markdown.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/report/report_matrix_json.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/report/report_html.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/report/report_comparison.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/report/report_flame_graphs.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/report/report_html_cell.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/report/report_trends.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/report/report_svg.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/report/report_pc_samples.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/report/report_rank_table.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/report/report_stragglers.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/report/report_sweep_matrix.cpp)
