# Unit tests of the captures area: aorta_add_unit_test(<stem> SOURCES unit/<file>.cpp ...).
# csv
aorta_add_unit_test(csv_scanner SOURCES unit/csv_scanner_test.cpp)
aorta_add_unit_test(csv_fast_path SOURCES unit/csv_fast_path_test.cpp)
aorta_add_unit_test(csv_block_masks SOURCES unit/csv_block_masks_test.cpp)
aorta_add_unit_test(csv_parts SOURCES unit/csv_parts_test.cpp)
aorta_add_unit_test(rocprof_reader SOURCES unit/rocprof_reader_test.cpp)
aorta_add_unit_test(rocpd_reader SOURCES unit/rocpd_reader_test.cpp)
target_link_libraries(aorta.test.rocpd_reader PRIVATE SQLite::SQLite3)
aorta_add_unit_test(rocpd_memory SOURCES unit/rocpd_memory_test.cpp)
aorta_add_unit_test(shared_name SOURCES unit/shared_name_test.cpp)
target_link_libraries(aorta.test.rocpd_memory PRIVATE SQLite::SQLite3)
# a sweep interrupted while a reader reads: an error, never a failed check
aorta_add_unit_test(read_interrupt SOURCES unit/read_interrupt_test.cpp)
target_link_libraries(aorta.test.read_interrupt PRIVATE SQLite::SQLite3)
aorta_add_unit_test(ncu_reader SOURCES unit/ncu_reader_test.cpp)
# a launch time that is no time fails the ncu and rocprofv3 CSV reads (issue 39, item 5)
aorta_add_unit_test(csv_bad_duration SOURCES unit/csv_bad_duration_test.cpp)
# The callgrind test profiles a real program of ours.
add_executable(aorta_callgrind_payload unit/callgrind_payload.cpp)
target_link_libraries(aorta_callgrind_payload PRIVATE aorta_warnings)
# A sanitizer runtime cannot run under valgrind, so the payload stays uninstrumented in asan builds.
target_compile_options(aorta_callgrind_payload PRIVATE
  $<$<CXX_COMPILER_ID:GNU,Clang>:-fno-sanitize=all>)
target_link_options(aorta_callgrind_payload PRIVATE
  $<$<CXX_COMPILER_ID:GNU,Clang>:-fno-sanitize=all>)
aorta_add_unit_test(callgrind_reader SOURCES unit/callgrind_reader_test.cpp
  unit/callgrind_line_bound_test.cpp)
add_dependencies(aorta.test.callgrind_reader aorta_callgrind_payload)
target_compile_definitions(aorta.test.callgrind_reader PRIVATE
  AORTA_CALLGRIND_PAYLOAD="$<TARGET_FILE:aorta_callgrind_payload>")

# hatchet
aorta_add_unit_test(hatchet SOURCES
  unit/hatchet_reader_test.cpp
  unit/hatchet_scanner_test.cpp
  unit/hatchet_tree_view_test.cpp)
# the json scanner's one-pass paths against its general loop (issue 21)
aorta_add_unit_test(json_scanner_paths SOURCES unit/json_scanner_paths_test.cpp)
# data: trace, hatchet_msgpack, part files and newer tree shapes (issue 12)
aorta_add_unit_test(proton_formats SOURCES unit/proton_formats_test.cpp)
# Proton's per-launch trace events and the warm-up rule.
aorta_add_unit_test(trace_warmup SOURCES unit/trace_warmup_test.cpp)
# issue 45: PC samples (real H100 captures and hostile trees)
aorta_add_unit_test(pc_samples SOURCES unit/pc_samples_test.cpp)
# the same at scale (10^5 lines x 20 reasons through reader, metrics, checks, view; time, memory)
aorta_add_unit_test(pc_samples_scale SOURCES unit/pc_samples_scale_test.cpp)
# user metrics Proton writes as strings or arrays, kept as text
aorta_add_unit_test(proton_text_metrics SOURCES unit/proton_text_metrics_test.cpp)
# issue 21: the frame tree only when a check reads it
aorta_add_unit_test(frame_tree_need SOURCES unit/frame_tree_need_test.cpp)
aorta_add_unit_test(compact_index SOURCES unit/compact_index_test.cpp)
aorta_add_unit_test(frame_tree_paths SOURCES unit/frame_tree_paths_test.cpp)

# real H200 fixtures
aorta_add_unit_test(h200_fixture SOURCES unit/h200_fixture_test.cpp)

# shared file discovery of the readers
aorta_add_unit_test(capture_files SOURCES unit/capture_files_test.cpp)

# issue 18: the readers' hostile inputs (bounded input layer, checked sums, streamed msgpack)
aorta_add_unit_test(hostile_readers SOURCES unit/hostile_readers_test.cpp)
# Google Benchmark JSON (real output under fixtures/gbench)
aorta_add_unit_test(gbench_reader SOURCES unit/gbench_reader_test.cpp unit/warmup_launches_test.cpp)
# nvbench JSON (the file NVIDIA ships in the cuda-bench wheel, under fixtures/nvbench)
aorta_add_unit_test(nvbench_reader SOURCES unit/nvbench_reader_test.cpp unit/nvbench_hostile_test.cpp
                    unit/nvbench_samples_test.cpp)
aorta_add_unit_test(ncu_counters SOURCES unit/ncu_counters_test.cpp)
