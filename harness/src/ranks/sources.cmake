# Sources of the ranks area (target_sources on aorta_harness): multi-rank payloads.
# Private headers: ranks/rank_identity.hpp, launcher.hpp, rank_plan.hpp, rank_exec.hpp,
# rank_reading.hpp, rank_rows.hpp, rank_trial.hpp, rank_card.hpp.
target_sources(aorta_harness PRIVATE
  ${CMAKE_CURRENT_SOURCE_DIR}/src/ranks/rank_identity.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/ranks/launcher.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/ranks/rank_plan.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/ranks/rank_card.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/ranks/rank_exec.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/ranks/rank_sum.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/ranks/rank_reading.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/ranks/rank_rows.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/ranks/rank_check_evaluate.cpp)
