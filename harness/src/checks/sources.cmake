# Sources of the checks area: the check grammar, its evaluation over a metric set and the metrics
# a trial's checks select (target_sources on aorta_harness).
# Private headers: checks/check_bounds.hpp, checks/check_forms.hpp, checks/function_checks.hpp,
# checks/scope_checks.hpp, checks/metric_selection.hpp, checks/ncu_checks.hpp,
# checks/check_message.hpp, checks/closest_names.hpp, checks/capture_pick.hpp,
# checks/failure_context.hpp, checks/pc_sample_checks.hpp.
target_sources(aorta_harness PRIVATE
  ${CMAKE_CURRENT_SOURCE_DIR}/src/checks/check_bounds.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/checks/check_forms.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/checks/check_names.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/checks/closest_names.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/checks/check_parser.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/checks/function_checks.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/checks/check_evaluate.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/checks/failure_context.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/checks/check_message.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/checks/scope_checks.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/checks/ncu_checks.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/checks/pc_sample_checks.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/checks/metric_selection.cpp)
