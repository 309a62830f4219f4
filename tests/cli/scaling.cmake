# Inputs that grow one awkward dimension (issue 21): each read or view was super-linear and took
# from 20 s to over a minute at these sizes; linear, each takes well under a second. The timeout
# is generous for a loaded machine; it is what fails, not a timer in the test. Inputs come from
# make_scaling_inputs.py, generated here.
set(scaling "${out}/scaling_inputs")
aorta_cli_test(scaling.make_inputs RC 0 FIXTURES_SETUP aorta_cli_scaling
  COMMAND python3 "${CMAKE_CURRENT_SOURCE_DIR}/make_scaling_inputs.py" "${scaling}")

# A 3,000-frame call stack: one regex per element, a resolve over all frames and a prefix copy
# per level made `aorta view` take about 60 s. Past view_folded_depth (64) a line starts with its
# depth instead of its rules and scope path, which made the text grow with depth squared (38 MB).
aorta_cli_test(scaling.view_deep_call_stack RC 0 TIMEOUT 20 FIXTURES_REQUIRED aorta_cli_scaling
  COMMAND "${aorta}" view "${scaling}/deep_stack/proton.chrome_trace"
  OUTPUT "       └─ 0\\.003 f63   \\[under\\(f0/f1/f2/[f0-9/]*/f62/f63\\)\\]"
         "\\[depth 65\\] └─ 0\\.003 f64" "\\[depth 3001\\] └─ 0\\.003 deep_kernel"
  NOT_OUTPUT "f64   \\[under")

# A device table of 200,000 GPUs: each entry was found by a walk over those before it (> 60 s).
aorta_cli_test(scaling.hatchet_200k_gpus RC 0 TIMEOUT 20 FIXTURES_REQUIRED aorta_cli_scaling
  COMMAND "${aorta}" check --collector proton "${scaling}/many_gpus" --check "count(gemm) == 1")

# 100,000 instrumentation scopes and a cycles() check on one that is missing: the list of known
# scopes in the message was built with a walk per scope (32-45 s).
aorta_cli_test(scaling.scopes_100k_cycles_check RC 1 TIMEOUT 20 FIXTURES_REQUIRED aorta_cli_scaling
  COMMAND "${aorta}" check --collector proton "${scaling}/many_scopes"
          --check "cycles(scope_99999) == 100999" --check "cycles(no_such_scope) > 0"
  OUTPUT "check PASS  cycles\\(scope_99999\\) == 100999"
         "no scope 'no_such_scope' in the proton capture. its scopes: scoped_kernel/scope_0, ")

# A rocpd database with 50,000 agents: each agent's device was found by a walk (21 s).
aorta_cli_test(scaling.rocpd_50k_agents RC 0 TIMEOUT 20 FIXTURES_REQUIRED aorta_cli_scaling
  COMMAND "${aorta}" check --collector rocprof "${scaling}/many_agents"
          --check "count(agent_probe) == 49998" --check "count(under(gpu49999)) == 1")

# A rocprofv3 agent_info.csv of 200,000 GPU rows: each agent was compared with every one kept
# before it (5.8 s at 50,000 rows, about 90 s here).
aorta_cli_test(scaling.rocprof_200k_agent_rows RC 0 TIMEOUT 20 FIXTURES_REQUIRED aorta_cli_scaling
  COMMAND "${aorta}" check --collector rocprof "${scaling}/many_agent_rows"
          --check "count(agent_kernel) == 1")
