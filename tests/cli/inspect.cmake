# aorta check / view on the real H200 captures (tests/fixtures/h200/README.md says how each was
# taken) and on the malformed hatchet fixtures.
set(hatchet_fixtures "${PROJECT_SOURCE_DIR}/tests/fixtures/hatchet")

# vecadd.py --iters 20 launches add_kernel exactly 20 times (plus 6 torch kernel launches).
aorta_cli_test(check.vecadd_count RC 0
  COMMAND "${aorta}" check --collector proton "${h200}/vecadd_cupti"
          --check "count(^add_kernel$) == 20"
  OUTPUT "check PASS  count\\(\\^add_kernel\\$\\) == 20  \\(actual 20\\)"
         "proton_backend +cupti" "proton_kernel_count +26\n")

aorta_cli_test(check.vecadd_count_wrong RC 1
  COMMAND "${aorta}" check --collector proton "${h200}/vecadd_cupti"
          --check "count(^add_kernel$) == 21"
  OUTPUT "check FAIL  count\\(\\^add_kernel\\$\\) == 21" "expected: == 21\n *actual: +20\n"
         "add_kernel  launches 20")

aorta_cli_test(check.pipeline_kernel_count RC 0
  COMMAND "${aorta}" check --collector proton "${h200}/pipeline_cupti"
          --check "proton_kernel_count == 60" --check "count(^scale_kernel$) == 20"
          --check "count(^bias_gelu_kernel$) == 20" --check "count(^row_sum_kernel$) == 20"
          --check "top_kernel ~ ^scale_kernel$"
  OUTPUT "check PASS  proton_kernel_count == 60  \\(actual 60\\)")

# cheap 574696 and expensive 4234617 cycles, read off proton.hatchet: ratio 7.368...
aorta_cli_test(check.hotspot_cycles RC 0
  COMMAND "${aorta}" check --collector proton "${h200}/hotspot_instrumentation"
          --check "cycles(expensive) / cycles(cheap) > 5" --check "cycles(cheap) == 574696"
          --check "cycles(unbalanced_kernel/expensive) == 4234617"
  OUTPUT "check PASS  cycles\\(expensive\\) / cycles\\(cheap\\) > 5  \\(actual 7\\.368[0-9]* \\(4234617 / 574696\\)\\)"
         "proton_backend +instrumentation")

aorta_cli_test(check.hotspot_cycles_ratio_too_high RC 1
  COMMAND "${aorta}" check --collector proton "${h200}/hotspot_instrumentation"
          --check "cycles(expensive) / cycles(cheap) > 8"
  OUTPUT "check FAIL  cycles\\(expensive\\) / cycles\\(cheap\\) > 8")

# ncu names a Triton kernel as Triton does (add_kernel); torch's kernels by their demangled names.
aorta_cli_test(check.ncu_vecadd RC 0
  COMMAND "${aorta}" check --collector ncu "${h200}/ncu_vecadd"
          --check "count(^add_kernel$) == 3" --check "ncu_kernel_count == 9"
          --check "count(^void at::vectorized_elementwise_kernel<4, at::CUDAFunctor_add<float>) == 2"
  OUTPUT "check PASS  count\\(\\^add_kernel\\$\\) == 3  \\(actual 3\\)")

aorta_cli_test(check.ncu_vecadd_raw RC 0
  COMMAND "${aorta}" check --collector ncu "${h200}/ncu_vecadd_raw"
          --check "count(^add_kernel$) == 3" --check "ncu_kernel_count == 9")

aorta_cli_test(check.json RC 0
  COMMAND "${aorta}" check --collector proton "${h200}/pipeline_cupti" --json
          --check "count(^row_sum_kernel$) == 20"
  JSON "stdout::metrics/proton_kernel_count=60"
       "stdout::metrics/proton_backend=cupti"
       "stdout::metrics/proton_top_kernels/0=scale_kernel"
       "stdout::kernels/0/name=scale_kernel"
       "stdout::kernels/2/launches=20"
       "stdout::verdict=pass"
       "stdout::checks/0/passed=ON"
       "stdout::checks/0/actual=20")

set(empty_dir "${out}/check_empty_dir")
aorta_cli_test(check.empty_directory RC 1
  CLEAN "${empty_dir}" WORKING_DIRECTORY "${empty_dir}"
  COMMAND "${aorta}" check --collector proton "${empty_dir}"
  OUTPUT "aorta: empty capture: [^\n]*check_empty_dir holds no kernel" "--allow-empty")

aorta_cli_test(check.empty_directory_allowed RC 0
  CLEAN "${empty_dir}_allowed" WORKING_DIRECTORY "${empty_dir}_allowed"
  COMMAND "${aorta}" check --collector proton "${empty_dir}_allowed" --allow-empty
  NOT_OUTPUT "empty capture")

foreach(malformed IN ITEMS truncated nan_token not_an_array)
  aorta_cli_test(check.malformed_${malformed} RC 1
    COMMAND "${aorta}" check --collector proton "${hatchet_fixtures}/${malformed}.hatchet"
    OUTPUT "aorta: error: [^\n]*/${malformed}\\.hatchet: byte [0-9]+ \\(line [0-9]+\\)")
endforeach()

aorta_cli_test(check.unknown_collector RC 64
  COMMAND "${aorta}" check --collector nosuch "${h200}/vecadd_cupti"
  OUTPUT "--collector 'nosuch' cannot be read")

aorta_cli_test(check.missing_path RC 64
  COMMAND "${aorta}" check --collector proton "${h200}/no_such_capture"
  OUTPUT "no_such_capture: no such file or directory")

aorta_cli_test(view.cycles RC 0
  COMMAND "${aorta}" view "${h200}/hotspot_instrumentation/proton.hatchet" -m cycles
  OUTPUT "^cycles of [^\n]*/hotspot_instrumentation/proton\\.hatchet\n4809313 ROOT\n"
         "4809313 ROOT\n[^\n]*4809313 unbalanced_kernel\n[^\n]*4234617 expensive\n[^\n]*574696 cheap\n")

aorta_cli_test(view.default_time RC 0
  COMMAND "${aorta}" view "${h200}/pipeline_cupti/proton.hatchet"
  OUTPUT "^time/ms of [^\n]*/pipeline_cupti/proton\\.hatchet\n[0-9.]+ ROOT\n"
         "ROOT\n" " scale_kernel\n" " bias_gelu_kernel\n" " row_sum_kernel\n")

aorta_cli_test(view.unknown_metric RC 64
  COMMAND "${aorta}" view "${h200}/hotspot_instrumentation/proton.hatchet" -m nosuch
  OUTPUT "unknown metric 'nosuch'")

aorta_cli_test(report.not_a_directory RC 64
  COMMAND "${aorta}" report "${h200}/README.md"
  OUTPUT "README\\.md is not a directory")

aorta_cli_test(view.malformed RC 1
  COMMAND "${aorta}" view "${hatchet_fixtures}/truncated.hatchet"
  OUTPUT "aorta: error: [^\n]*truncated\\.hatchet: byte 169 \\(line 3\\): unexpected end of input")

# --recipe: read with the recipe's collector options (a pinned backend) and run its checks too.
aorta_cli_test(check.recipe_options_and_checks RC 0
  COMMAND "${aorta}" check "${h200}/pipeline_cupti" --recipe "${recipes}/check_pinned_cupti.yaml"
          --check "proton_kernel_count == 60" --json
  JSON "stdout::metrics/proton_backend=cupti"
       "stdout::checks/0/expression=proton_kernel_count == 60"
       "stdout::checks/1/expression=count(^row_sum_kernel$) == 20"
       "stdout::checks/1/passed=ON"
       "stdout::verdict=pass")

aorta_cli_test(check.recipe_of_another_collector RC 64
  COMMAND "${aorta}" check --collector proton "${h200}/pipeline_cupti"
          --recipe "${recipes}/callgrind_ratio.yaml"
  OUTPUT "does not collect with proton")
