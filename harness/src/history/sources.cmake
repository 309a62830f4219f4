# Sources of the history area (target_sources on aorta_harness): the results store after the
# record (docs/history.md) — runs read from sweep outputs, kept in SQLite or PostgreSQL, and the change points of
# every series.
target_sources(aorta_harness PRIVATE
  ${CMAKE_CURRENT_SOURCE_DIR}/src/history/history_store.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/history/sqlite_history_store.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/history/sqlite_detector_state.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/history/sqlite_transaction.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/history/saved_detector.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/history/iso_time.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/history/run_ingest.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/history/change_points.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/history/series_changes.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/history/history_baseline.cpp)
# The PostgreSQL store compiles in a library of its own, so libpq's headers and the
# AORTA_WITH_POSTGRESQL switch reach only the files that use them, not every harness source.
if(AORTA_WITH_POSTGRESQL)
  add_library(aorta_history_postgresql OBJECT
    ${CMAKE_CURRENT_SOURCE_DIR}/src/history/postgresql_history_store.cpp
    ${CMAKE_CURRENT_SOURCE_DIR}/src/history/postgresql_detector_state.cpp
    ${CMAKE_CURRENT_SOURCE_DIR}/src/history/postgresql_connection.cpp)
  set_target_properties(aorta_history_postgresql PROPERTIES POSITION_INDEPENDENT_CODE ON)
  target_include_directories(aorta_history_postgresql PRIVATE
    ${CMAKE_CURRENT_SOURCE_DIR}/include ${CMAKE_CURRENT_SOURCE_DIR}/src)
  target_link_libraries(aorta_history_postgresql PRIVATE PostgreSQL::PostgreSQL fmt::fmt
    nlohmann_json::nlohmann_json aorta_warnings)
  target_sources(aorta_harness PRIVATE $<TARGET_OBJECTS:aorta_history_postgresql>)
  target_link_libraries(aorta_harness PRIVATE ${PostgreSQL_LIBRARIES})
  set_source_files_properties(${CMAKE_CURRENT_SOURCE_DIR}/src/history/history_store.cpp
    PROPERTIES COMPILE_DEFINITIONS AORTA_WITH_POSTGRESQL=1)
endif()
