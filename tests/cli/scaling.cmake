# Inputs that grow one awkward dimension (issue 21): each read or view was super-linear and took
# from 20 s to over a minute at these sizes; linear, each takes well under a second. The timeout
# is generous for a loaded machine; it is what fails, not a timer in the test. Inputs come from
# make_scaling_inputs.py, generated here.
set(scaling "${out}/scaling_inputs")
# Sanitizer builds run these inputs about 8x slower (the 200,000-metric report: 1.6 s, 17 s under
# ASan+UBSan); the 20 s limit that catches a super-linear path is held by the plain build.
set(scaling_timeout 20)
if(CMAKE_CXX_FLAGS MATCHES "-fsanitize")
  set(scaling_timeout 120)
endif()
# Generating the inputs takes 30 s on a quiet machine and passed the default 120 s on a loaded
# one, leaving its nine dependents unrun; it times nothing, so its limit only stops a hang.
aorta_cli_test(scaling.make_inputs RC 0 TIMEOUT 600 FIXTURES_SETUP aorta_cli_scaling
  COMMAND python3 "${CMAKE_CURRENT_SOURCE_DIR}/make_scaling_inputs.py" "${scaling}")

# A 3,000-frame call stack: one regex per element, a resolve over all frames and a prefix copy
# per level made `aorta view` take about 60 s. Past view_folded_depth (64) a line starts with its
# depth instead of its rules and scope path, which made the text grow with depth squared (38 MB).
aorta_cli_test(scaling.view_deep_call_stack RC 0 TIMEOUT ${scaling_timeout} FIXTURES_REQUIRED aorta_cli_scaling
  COMMAND "${aorta}" view "${scaling}/deep_stack/proton.chrome_trace"
  OUTPUT "       └─ 0\\.003 f63   \\[under\\(f0/f1/f2/[f0-9/]*/f62/f63\\)\\]"
         "\\[depth 65\\] └─ 0\\.003 f64" "\\[depth 3001\\] └─ 0\\.003 deep_kernel"
  NOT_OUTPUT "f64   \\[under")

# A device table of 200,000 GPUs: each entry was found by a walk over those before it (> 60 s).
aorta_cli_test(scaling.hatchet_200k_gpus RC 0 TIMEOUT ${scaling_timeout} FIXTURES_REQUIRED aorta_cli_scaling
  COMMAND "${aorta}" check --collector proton "${scaling}/many_gpus" --check "count(gemm) == 1")

# 100,000 instrumentation scopes and a cycles() check on one that is missing: the list of known
# scopes in the message was built with a walk per scope (32-45 s).
aorta_cli_test(scaling.scopes_100k_cycles_check RC 1 TIMEOUT ${scaling_timeout} FIXTURES_REQUIRED aorta_cli_scaling
  COMMAND "${aorta}" check --collector proton "${scaling}/many_scopes"
          --check "cycles(scope_99999) == 100999" --check "cycles(no_such_scope) > 0"
  OUTPUT "check PASS  cycles\\(scope_99999\\) == 100999"
         "no scope 'no_such_scope' in the proton capture. its scopes: scoped_kernel/scope_0, ")

# A rocpd database with 50,000 agents: each agent's device was found by a walk (21 s).
aorta_cli_test(scaling.rocpd_50k_agents RC 0 TIMEOUT ${scaling_timeout} FIXTURES_REQUIRED aorta_cli_scaling
  COMMAND "${aorta}" check --collector rocprof "${scaling}/many_agents"
          --check "count(agent_probe) == 49998" --check "count(under(gpu49999)) == 1")

# A rocprofv3 agent_info.csv of 200,000 GPU rows: each agent was compared with every one kept
# before it (5.8 s at 50,000 rows, about 90 s here).
aorta_cli_test(scaling.rocprof_200k_agent_rows RC 0 TIMEOUT ${scaling_timeout} FIXTURES_REQUIRED aorta_cli_scaling
  COMMAND "${aorta}" check --collector rocprof "${scaling}/many_agent_rows"
          --check "count(agent_kernel) == 1")

# A 150,000-frame call stack and two under() checks on its deepest frame: each built the frame's
# display path by prepending every name to a copy of the path below it (17 s a check).
aorta_cli_test(scaling.under_deepest_of_150k_frames RC 0 TIMEOUT ${scaling_timeout} FIXTURES_REQUIRED aorta_cli_scaling
  COMMAND "${aorta}" check --collector proton "${scaling}/deep_call_path"
          --check "count(under(deepest_frame)) == 1" --check "time_ms(under(deepest_frame)) > 0"
  OUTPUT "check PASS  count\\(under\\(deepest_frame\\)\\) == 1"
         "check PASS  time_ms\\(under\\(deepest_frame\\)\\) > 0")

# A trial of 200,000 numeric metrics: perf.md searched the names listed so far for each one of
# the cell's summary (10 s at 100,000, about 40 s here).
aorta_cli_test(scaling.report_200k_metrics RC 0 TIMEOUT ${scaling_timeout} FIXTURES_REQUIRED aorta_cli_scaling
  COMMAND "${aorta}" report "${scaling}/many_metrics_results"
  OUTPUT "cell: 1 pass, 0 fail, 0 skip, 0 error"
  FILE_REGEX "${scaling}/many_metrics_results/perf.md"
             "\\| `proton_scope_cycles\\.scope_99999` \\| 100999 \\| 100999 \\| 100999 \\| 1 \\|\n")

# A trial of 80,000 kernel rows, each of its own collector: the report found each row's
# collector with a search of those seen before and walked every row per collector (56 s).
aorta_cli_test(scaling.report_80k_kernel_collectors RC 0 TIMEOUT ${scaling_timeout} FIXTURES_REQUIRED aorta_cli_scaling
  COMMAND "${aorta}" report "${scaling}/many_collectors_results"
  OUTPUT "cell: 1 pass, 0 fail, 0 skip, 0 error"
  FILE_REGEX "${scaling}/many_collectors_results/report.html"
             "<h4>Total ms per kernel \\(collector_79999\\)</h4>")

# A sweep's output of 30,000 cells and its matrix.json: the report searched every swept cell
# for each of its own to carry the sweep's keys over (40 s).
aorta_cli_test(scaling.report_30k_sweep_cells RC 0 TIMEOUT ${scaling_timeout} FIXTURES_REQUIRED aorta_cli_scaling
  COMMAND "${aorta}" report "${scaling}/many_cells_results"
  OUTPUT "cell_29999: 1 pass, 0 fail, 0 skip, 0 error"
  FILE_REGEX "${scaling}/many_cells_results/report.json"
             "\"mitigation_29999\"\n *\\],\n *\"name\": \"cell_29999\"")
