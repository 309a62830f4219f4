# Sources of the history area (target_sources on aorta_harness): the results store after the
# record (docs/history.md) — runs read from sweep outputs, kept in SQLite, and the change points of
# every series.
target_sources(aorta_harness PRIVATE
  ${CMAKE_CURRENT_SOURCE_DIR}/src/history/history_store.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/history/sqlite_history_store.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/history/iso_time.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/history/run_ingest.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/history/change_points.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/history/series_changes.cpp)
