# aorta check on each capture format of issue 12, a passing and a failing check on each: the real
# H200 scoped-phases captures (tests/fixtures/h200-scoped), the hand-made Proton formats
# (tests/fixtures/proton-formats) and rocpd databases generated from the published schema
# (tests/fixtures/rocpd/make_rocpd.py).
set(scoped "${PROJECT_SOURCE_DIR}/tests/fixtures/h200-scoped")
set(formats "${PROJECT_SOURCE_DIR}/tests/fixtures/proton-formats")
set(rocpd_out "${CMAKE_CURRENT_BINARY_DIR}/rocpd")
set(scoped_fail "time_ms(under(^decode$)) / time_ms(under(^prefill$)) > 0.5")

# --- the H200 tree and trace: prefill 26.734 ms, decode 0.0643 ms -----------------------------
foreach(kind IN ITEMS tree trace)
  aorta_cli_test(formats.h200_${kind}_scopes RC 0
    COMMAND "${aorta}" check --collector proton "${scoped}/${kind}"
            --check "time_ms(under(^prefill$)) < 500" --check "time_ms(under(^decode$)) < 5"
            --check "time_ms(under(^decode$)) / time_ms(under(^prefill$)) < 0.01"
            --check "count(under(^prefill$)) == 10"
            --check "count(under(^decode$)) == 20" --check "proton_kernel_count == 54"
    OUTPUT "check PASS  time_ms\\(under\\(\\^prefill\\$\\)\\) < 500  \\(actual 26\\.73"
           "check PASS  time_ms\\(under\\(\\^decode\\$\\)\\) < 5  \\(actual 0\\.064")
  aorta_cli_test(formats.h200_${kind}_ratio_fails RC 1
    COMMAND "${aorta}" check --collector proton "${scoped}/${kind}" --check "${scoped_fail}"
    OUTPUT "check FAIL  time_ms\\(under\\(\\^decode\\$\\)\\) / time_ms\\(under\\(\\^prefill\\$\\)\\) > 0\\.5"
           "actual: +0\\.0024")
endforeach()

aorta_cli_test(formats.h200_top_kernel_under_decode RC 0
  COMMAND "${aorta}" check --collector proton "${scoped}/tree"
          --check "top_kernel(under(decode)) ~ 32x32x8.*execute_kernel"
          --check "top_kernel ~ 256x128x8")

aorta_cli_test(formats.scope_ambiguous RC 1
  COMMAND "${aorta}" check --collector proton "${scoped}/tree" --check "time_ms(under(e)) < 1"
  OUTPUT "under\\(e\\) is ambiguous: it matches 2 frames: (decode, prefill|prefill, decode)")

aorta_cli_test(formats.scope_missing RC 1
  COMMAND "${aorta}" check --collector proton "${scoped}/trace" --check "count(under(warmup)) == 0"
  OUTPUT "no frame matches under\\(warmup\\); the proton capture's frames: prefill, decode")

aorta_cli_test(formats.scope_without_placements RC 1
  COMMAND "${aorta}" check --collector ncu "${h200}/ncu_vecadd" --check "count(under(x)) == 3"
  OUTPUT "the ncu capture does not record where kernels ran")

aorta_cli_test(formats.view_prints_scope_paths RC 0
  COMMAND "${aorta}" view "${scoped}/tree/proton.hatchet"
  OUTPUT "26\\.734 prefill   \\[under\\(prefill\\)\\]" "0\\.064 decode   \\[under\\(decode\\)\\]")

# --- hand-made Proton formats: 10 x gemm_large 26.7 ms under prefill, 10 x gemm_small 0.063 ms
foreach(input IN ITEMS streams.chrome_trace msgpack/tree.hatchet_msgpack
                       msgpack/trace.hatchet_msgpack parts)
  string(REGEX REPLACE "[/.]" "_" stem "${input}")
  aorta_cli_test(formats.${stem} RC 0
    COMMAND "${aorta}" check --collector proton "${formats}/${input}"
            --check "count(^gemm_large$) == 10" --check "count(under(decode)) == 10"
            --check "time_ms(under(decode)) / time_ms(under(prefill)) < 0.01"
    OUTPUT "check PASS  count\\(\\^gemm_large\\$\\) == 10  \\(actual 10\\)")
  aorta_cli_test(formats.${stem}_wrong RC 1
    COMMAND "${aorta}" check --collector proton "${formats}/${input}"
            --check "count(under(decode)) == 11"
    OUTPUT "check FAIL  count\\(under\\(decode\\)\\) == 11")
endforeach()

aorta_cli_test(formats.metric_helper RC 0
  COMMAND "${aorta}" check --collector proton "${formats}/metric_helper.hatchet"
          --check "proton_kernel_count == 2" --check "count(under(decode/graph_launch)) == 2"
  OUTPUT "proton_backend +cupti")
aorta_cli_test(formats.metric_helper_is_no_scope RC 1
  COMMAND "${aorta}" check --collector proton "${formats}/metric_helper.hatchet"
          --check "count(under(metric)) == 0"
  OUTPUT "no frame matches under\\(metric\\)")

# --- aorta view on chrome traces (data: trace) and hatchet_msgpack -------------------------------
aorta_cli_test(formats.view_h200_chrome_trace RC 0
  COMMAND "${aorta}" view "${scoped}/trace"
  OUTPUT "time/ms of .*trace/proton\\.chrome_trace"
         "├─ 26\\.734 prefill   \\[under\\(prefill\\)\\]\n│  └─ 26\\.734 sm80_xmma_gemm_f32f32_f32f32_f32_nn_n_tilesize256x128x8"
         "├─ 0\\.064 decode   \\[under\\(decode\\)\\]\n│  ├─ 0\\.038 sm80_xmma_gemm_f32f32_f32f32_f32_nn_n_tilesize32x32x8.*_execute_kernel__5x_cublas\n│  └─ 0\\.026 ")
aorta_cli_test(formats.view_trace_msgpack_columns RC 0
  COMMAND "${aorta}" view "${formats}/msgpack/trace.hatchet_msgpack" -m time/ms,count
  OUTPUT "time/ms count name\n 26\\.763    20 ROOT\n 26\\.700    10 ├─ prefill   \\[under\\(prefill\\)\\]\n 26\\.700    10 │  └─ gemm_large")
aorta_cli_test(formats.view_truncated_chrome_trace RC 1
  COMMAND "${aorta}" view "${formats}/truncated.chrome_trace"
  OUTPUT "truncated\\.chrome_trace: byte [0-9]+ \\(line 1\\): unexpected end of input")
aorta_cli_test(formats.check_detects_a_chrome_trace RC 0
  COMMAND "${aorta}" check "${formats}/streams.chrome_trace" --check "count(^gemm_small$) == 10"
  OUTPUT "holds a Proton capture \\(hatchet, hatchet_msgpack or chrome trace\\): reading it with --collector proton")

# --- user metrics that are strings or arrays: kept as text, never a number --------------------
foreach(input IN ITEMS text_metrics.hatchet msgpack/text_metrics.hatchet_msgpack)
  string(REGEX REPLACE "[/.]" "_" stem "${input}")
  aorta_cli_test(formats.${stem}_kept RC 0
    COMMAND "${aorta}" check --collector proton "${formats}/${input}"
            --check "count(under(decode/graph_launch)) == 2" --check "count(^gemm_large$) == 10"
    OUTPUT "proton_text\\.prefill:tokens +128\n" "proton_text\\.decode/graph_launch:graph_tag +cuda-graph-7"
           "proton_text\\.prefill:per_sm_waves +\\[1,2,-3\\]"
           "note: text metric 'histogram' of 'decode': 2291 bytes, kept the first 1024")
  aorta_cli_test(formats.${stem}_numeric_check RC 1
    COMMAND "${aorta}" check --collector proton "${formats}/${input}"
            --check "proton_text.prefill:tokens > 100"
    OUTPUT "check FAIL  proton_text\\.prefill:tokens > 100"
           "why: +metric 'proton_text\\.prefill:tokens' is text \\('128'\\), not a number; the profiler wrote this user metric as a string or array")
  aorta_cli_test(formats.${stem}_view RC 0
    COMMAND "${aorta}" view "${formats}/${input}"
    OUTPUT "├─ 26\\.700 prefill   \\[under\\(prefill\\)\\]\n(│  │  [^\n]+\n)*│  │  tokens = 128   \\[proton_text\\.prefill:tokens\\]\n"
           "   │  └─ 0\\.000 <metric>\n(   │        [^\n]+\n)*   │        graph_tag = cuda-graph-7   \\[proton_text\\.decode/graph_launch:graph_tag\\]")
endforeach()
aorta_cli_test(formats.text_metrics_json RC 0
  COMMAND "${aorta}" check --collector proton "${formats}/text_metrics.hatchet" --json
  OUTPUT "\"proton_text\\.prefill:phase_note\": \"warm \\\\\"cache\\\\\"\\\\nsecond line\"")

aorta_cli_test(formats.truncated_chrome_trace RC 1
  COMMAND "${aorta}" check --collector proton "${formats}/truncated.chrome_trace"
  OUTPUT "truncated\\.chrome_trace: byte [0-9]+ \\(line 1\\): unexpected end of input")
aorta_cli_test(formats.msgpack_not_proton RC 1
  COMMAND "${aorta}" check --collector proton "${formats}/msgpack/not_proton.hatchet_msgpack"
  OUTPUT "not_proton\\.hatchet_msgpack: valid MessagePack but not a Proton document")
aorta_cli_test(formats.msgpack_truncated RC 1
  COMMAND "${aorta}" check --collector proton "${formats}/msgpack/truncated.hatchet_msgpack"
  OUTPUT "truncated\\.hatchet_msgpack: not valid MessagePack")

# --- rocpd: databases from the published schema, generated here --------------------------------
set(make_rocpd "${PROJECT_SOURCE_DIR}/tests/fixtures/rocpd/make_rocpd.py")
add_test(NAME aorta.cli.formats.rocpd_generate
  COMMAND ${CMAKE_COMMAND} -DGENERATOR=${make_rocpd} -DOUT=${rocpd_out}
          -P ${CMAKE_CURRENT_SOURCE_DIR}/make_rocpd_fixtures.cmake)
set_tests_properties(aorta.cli.formats.rocpd_generate PROPERTIES LABELS cli
  FIXTURES_SETUP rocpd_dbs)

foreach(layout IN ITEMS direct timestamp)
  aorta_cli_test(formats.rocpd_${layout} RC 0 FIXTURES_REQUIRED rocpd_dbs
    COMMAND "${aorta}" check --collector rocprof "${rocpd_out}/${layout}"
            --check "count(gemm) == 30" --check "count(^elementwise_add_kernel$) == 20"
            --check "time_ms(gemm) > 4.59" --check "time_ms(gemm) < 4.61"
            --check "count(under(^gpu1$)) == 10" --check "top_kernel ~ gemm"
    OUTPUT "check PASS  count\\(gemm\\) == 30  \\(actual 30\\)"
           "check PASS  count\\(under\\(\\^gpu1\\$\\)\\) == 10")
  aorta_cli_test(formats.rocpd_${layout}_wrong RC 1 FIXTURES_REQUIRED rocpd_dbs
    COMMAND "${aorta}" check --collector rocprof "${rocpd_out}/${layout}"
            --check "count(gemm) == 31"
    OUTPUT "check FAIL  count\\(gemm\\) == 31" "actual: +30")
endforeach()

# One database file, without --collector: recognised by its SQLite header and read as rocpd.
aorta_cli_test(formats.rocpd_single_file_detected RC 0 FIXTURES_REQUIRED rocpd_dbs
  COMMAND "${aorta}" check "${rocpd_out}/single/host-4242.db"
          --check "count(gemm) == 30" --check "count(^elementwise_add_kernel$) == 20"
  OUTPUT "holds a rocprofv3 capture \\(CSV, JSON or rocpd database\\): reading it with --collector rocprof"
         "check PASS  count\\(gemm\\) == 30  \\(actual 30\\)")

aorta_cli_test(formats.rocpd_unknown_schema RC 1 FIXTURES_REQUIRED rocpd_dbs
  COMMAND "${aorta}" check --collector rocprof "${rocpd_out}/future"
  OUTPUT "future/aorta_results\\.db: rocpd schema version 9 is not one aorta reads \\(it reads 3\\)"
         "output_format: csv")
aorta_cli_test(formats.rocpd_not_rocpd RC 1 FIXTURES_REQUIRED rocpd_dbs
  COMMAND "${aorta}" check --collector rocprof "${rocpd_out}/notrocpd"
  OUTPUT "notrocpd/aorta_results\\.db: a SQLite database without the rocpd_metadata view")
aorta_cli_test(formats.rocpd_corrupt RC 1 FIXTURES_REQUIRED rocpd_dbs
  COMMAND "${aorta}" check --collector rocprof "${rocpd_out}/corrupt"
  OUTPUT "corrupt/aorta_results\\.db: rocpd database: .*not a SQLite database or is corrupt")
