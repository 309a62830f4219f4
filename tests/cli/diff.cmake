# `aorta diff A B` (issue 43): the change between two captures of one profiler, culprit first, on
# the real fixtures of every reader that has two (rocpd's are generated per run: not here).
set(diff_fixtures "${PROJECT_SOURCE_DIR}/tests/fixtures")
aorta_cli_test(diff.hatchet RC 0
  COMMAND "${aorta}" diff "${diff_fixtures}/hatchet/cuda_small.hatchet"
          "${diff_fixtures}/hatchet/instrumentation_seed.hatchet"
  OUTPUT "aorta: diff \\(proton\\)" "total kernel time \\(ms\\): 0\\.05 -> 0 \\(-100\\.00%\\)"
         "kind +name[^\n]*\nkernel +add_kernel +0\\.041 +- +gone +82%\n"
         "scope +unbalanced_kernel/expensive +- +8463028 +new")
# A Proton trace against the same run written as a tree (MessagePack): nothing moved.
aorta_cli_test(diff.chrome_trace_against_its_tree RC 0
  COMMAND "${aorta}" diff "${diff_fixtures}/proton-formats/streams.chrome_trace"
          "${diff_fixtures}/proton-formats/msgpack/tree.hatchet_msgpack"
  OUTPUT "total kernel time \\(ms\\): 26\\.763 -> 26\\.763 \\(\\+0\\.00%\\)" "\\(2 row\\(s\\) unchanged\\)"
  NOT_OUTPUT "kind +name")
aorta_cli_test(diff.ncu RC 0
  COMMAND "${aorta}" diff "${diff_fixtures}/ncu/european.csv" "${diff_fixtures}/ncu/preamble_details.csv"
  OUTPUT "aorta: diff \\(ncu\\)" "kind +name[^\n]*\nkernel +reduce_sum +- +0\\.501 +new +100%\n"
         "kernel +sgemm_tiled\\(float const\\*, float const\\*, float\\*, int\\) +1\\.2155 +1\\.2175 +\\+0\\.16%")
aorta_cli_test(diff.rocprof RC 0
  COMMAND "${aorta}" diff "${diff_fixtures}/rocprof/flat_stats" "${diff_fixtures}/rocprof/stats_renamed"
  OUTPUT "aorta: diff \\(rocprof\\)" "kind +name[^\n]*\nkernel +sgemm_tiled[^\n]+ -99\\.78% +81%\n")
aorta_cli_test(diff.gbench RC 0
  COMMAND "${aorta}" diff "${diff_fixtures}/gbench/plain.json" "${diff_fixtures}/gbench/repetitions.json"
  OUTPUT "aorta: diff \\(gbench\\)" "kernel +BM_Sort/16384 +2\\.8307 +2\\.8395 +\\+0\\.31%")
aorta_cli_test(diff.nvbench RC 0
  COMMAND "${aorta}" diff "${diff_fixtures}/nvbench/h200-gemm.json" "${diff_fixtures}/nvbench/h200-gemm-error.json"
  OUTPUT "aorta: diff \\(nvbench\\)" "kind +name[^\n]*\nkernel +gemm/N:2048 +2\\.1071 +- +gone +88%\n")
aorta_cli_test(diff.two_profilers_refused RC 64
  COMMAND "${aorta}" diff "${diff_fixtures}/gbench/plain.json" "${diff_fixtures}/ncu/european.csv"
  OUTPUT "is a capture of gbench and .*european\\.csv one of ncu: a diff compares two captures of one profiler")
aorta_cli_test(diff.missing_path_refused RC 64
  COMMAND "${aorta}" diff "${diff_fixtures}/gbench/plain.json" "${diff_fixtures}/gbench/no_such.json"
  OUTPUT "no_such\\.json: no such file or directory\\. Fix:")
aorta_cli_test(diff.unreadable_capture_names_the_file RC 1
  COMMAND "${aorta}" diff "${diff_fixtures}/proton-formats/truncated.chrome_trace"
          "${diff_fixtures}/proton-formats/streams.chrome_trace"
  OUTPUT "truncated\\.chrome_trace")
# rocpd: the two layouts of one run's database (tests/cli/formats.cmake generates them) are the
# same capture: nothing moved. Rows are by place (agent > kernel): the GEMM ran on gpu0 and gpu1,
# so three rows for two kernels.
aorta_cli_test(diff.rocpd_layouts_agree RC 0 FIXTURES_REQUIRED rocpd_dbs
  COMMAND "${aorta}" diff --collector rocprof "${rocpd_out}/direct" "${rocpd_out}/timestamp"
  OUTPUT "aorta: diff \\(rocprof\\)" "total kernel time \\(ms\\): 4\\.7 -> 4\\.7 \\(\\+0\\.00%\\)"
         "\\(3 row\\(s\\) unchanged\\)"
  NOT_OUTPUT "kind +name")
aorta_cli_test(diff.rocpd_rows_name_their_agent RC 0 FIXTURES_REQUIRED rocpd_dbs
  COMMAND "${aorta}" diff --all --collector rocprof "${rocpd_out}/direct" "${rocpd_out}/timestamp"
  OUTPUT "kernel +gpu0 > Cijk_Ailk_Bljk_SB_MT128x128x16_gemm +3 +3 +\\+0\\.00%"
         "kernel +gpu1 > Cijk_Ailk_Bljk_SB_MT128x128x16_gemm +1\\.6 +1\\.6 ")
# Tree paths (issue 43): a kernel under a Proton scope is named by its path, in a real H200 tree
# against the trace of the same run; the kernels at the root keep their bare names.
aorta_cli_test(diff.scope_paths RC 0
  COMMAND "${aorta}" diff --all "${diff_fixtures}/h200-scoped/tree/proton.hatchet"
          "${diff_fixtures}/h200-scoped/trace/proton.chrome_trace"
  OUTPUT "\nkernel +prefill > sm80_xmma_gemm_f32f32_f32f32_f32_nn_n_tilesize256x128x8_[^ ]+ +26\\.734 +26\\.7344 "
         "\nkernel +decode > sm80_xmma_gemm_f32f32_f32f32_f32_nn_n_tilesize32x32x8_[^ ]+_execute_kernel__5x_cublas "
         "\nkernel +sm90_xmma_gemm_f64f64_f64f64_f64_nn_n_tilesize128x64x16_")
# The differential flame graph (--html) in headless Chromium: two real H200 Proton trees, add_kernel
# faster (blue) under its frames, kernels only in one of them red or blue.
add_test(NAME aorta.report.chromium_diff
  COMMAND ${PROJECT_SOURCE_DIR}/tests/report/chromium_diff_check.sh "${aorta}"
          "${out}/report-chromium-diff" "${diff_fixtures}/h200/vecadd_cupti/proton.hatchet"
          "${diff_fixtures}/h200/pipeline_cupti/proton.hatchet" "add_kernel")
set_tests_properties(aorta.report.chromium_diff PROPERTIES
  LABELS "cli;report" SKIP_RETURN_CODE 77 TIMEOUT 180)
# "Did you mean" for a reader that does not exist, and the reader the files are for when the named
# one is not (issue 43).
aorta_cli_test(diff.unknown_collector_suggests RC 64
  COMMAND "${aorta}" diff --collector protn "${diff_fixtures}/hatchet/cuda_small.hatchet"
          "${diff_fixtures}/hatchet/instrumentation_seed.hatchet"
  OUTPUT "--collector 'protn' is not a reader aorta has; did you mean: proton[,.]")
aorta_cli_test(diff.collector_not_the_files RC 64
  COMMAND "${aorta}" diff --collector ncu "${diff_fixtures}/gbench/plain.json"
          "${diff_fixtures}/gbench/repetitions.json"
  OUTPUT "plain\\.json holds no ncu capture: it looks like gbench\\. Fix: --collector gbench")
