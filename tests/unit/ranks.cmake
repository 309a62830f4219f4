aorta_add_unit_test(ranks SOURCES
  ${CMAKE_CURRENT_SOURCE_DIR}/unit/ranks_launcher_test.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/unit/ranks_checks_test.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/unit/ranks_hostile_test.cpp)
