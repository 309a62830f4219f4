# Sources of the captures area (target_sources on aorta_harness).
# csv
target_sources(aorta_harness PRIVATE
  ${CMAKE_CURRENT_SOURCE_DIR}/src/captures/capture_files.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/captures/capture_format.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/captures/csv_parts.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/captures/csv_scanner.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/captures/csv_kernel_table.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/captures/ncu_counters.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/captures/rocprof_csv.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/captures/rocprof_json.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/captures/rocprof_reader.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/captures/rocpd_database.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/captures/rocpd_dispatch_sums.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/captures/rocpd_kernel_names.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/captures/rocpd_reader.cpp)
# rocpd databases are SQLite (Debian: libsqlite3-dev)
target_link_libraries(aorta_harness PRIVATE SQLite::SQLite3)
target_sources(aorta_harness PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/src/captures/ncu_reader.cpp)
target_sources(aorta_harness PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/src/captures/callgrind_reader.cpp)
# compute-sanitizer text reports
target_sources(aorta_harness PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/src/captures/sanitizer_reader.cpp)

# hatchet: the Proton hatchet reader and tree view
target_sources(aorta_harness PRIVATE
  ${CMAKE_CURRENT_SOURCE_DIR}/src/captures/json_scanner.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/captures/hatchet_reader.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/captures/json_file_scan.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/captures/hatchet_reader_sax.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/captures/hatchet_reader_accumulator.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/captures/hatchet_pc_samples.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/captures/pc_samples.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/captures/frame_tree.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/captures/name_table.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/captures/chrome_trace_reader.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/captures/proton_msgpack.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/captures/tree_view_model.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/captures/tree_view_samples.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/captures/tree_view.cpp)
# Google Benchmark JSON
target_sources(aorta_harness PRIVATE
  ${CMAKE_CURRENT_SOURCE_DIR}/src/captures/gbench_run.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/captures/gbench_reader.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/captures/warmup_launches.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/captures/launch_series.cpp)
# nvbench JSON
target_sources(aorta_harness PRIVATE
  ${CMAKE_CURRENT_SOURCE_DIR}/src/captures/nvbench_state.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/captures/nvbench_samples.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/captures/nvbench_reader.cpp)
