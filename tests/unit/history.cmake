# Unit tests of the history area (docs/history.md): the store, the ingest of sweep outputs and the
# change-point detector. The CLI-level tests (concurrent adds, hostile trees, the labelled
# synthetic replay) are in tests/history/.
aorta_add_unit_test(history_change_points SOURCES unit/history_change_points_test.cpp)
aorta_add_unit_test(history_store SOURCES unit/history_store_test.cpp)
target_link_libraries(aorta.test.history_store PRIVATE SQLite::SQLite3)
aorta_add_unit_test(history_postgresql SOURCES unit/history_postgresql_test.cpp)
if(AORTA_WITH_POSTGRESQL)
  target_compile_definitions(aorta.test.history_postgresql PRIVATE AORTA_WITH_POSTGRESQL=1)
endif()
aorta_add_unit_test(report_trends SOURCES unit/report_trends_test.cpp)
