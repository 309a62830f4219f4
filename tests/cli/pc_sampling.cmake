# PC sampling through the CLI on the real H100 captures of tests/fixtures/h100-pcsampling: a
# sampling capture is a capture (it used to read as empty), and a recipe that asks for samples
# fails on a capture without any, naming the route that lost them.
set(pcsampling "${PROJECT_SOURCE_DIR}/tests/fixtures/h100-pcsampling")

aorta_cli_test(pc_sampling.env_capture_is_read_and_passes RC 0
  COMMAND "${aorta}" check --recipe "${recipes}/pcsampling_env.yaml"
          "${pcsampling}/gelu-pcsampling-env.hatchet"
  OUTPUT "check PASS  count\\(\\^gelu_kernel\\$\\) == 50"
  NOT_OUTPUT "empty capture")

aorta_cli_test(pc_sampling.cli_route_without_samples_fails_naming_the_cause RC 1
  COMMAND "${aorta}" check --recipe "${recipes}/pcsampling_cli.yaml"
          "${pcsampling}/gelu-pcsampling-cli.hatchet"
  OUTPUT "asks for PC sampling \\(backend_mode: pcsampling\\)"
         "Triton's CLI parses and drops"
         "proton: \\{mode: env\\}")

aorta_cli_test(pc_sampling.env_route_without_samples_fails_naming_the_payload RC 1
  COMMAND "${aorta}" check --recipe "${recipes}/pcsampling_env.yaml"
          "${pcsampling}/gelu-pcsampling-cli.hatchet"
  OUTPUT "mode=os.environ\\['AORTA_PROTON_MODE'\\]")

aorta_cli_test(pc_sampling.no_sampling_asked_passes_without_samples RC 0
  COMMAND "${aorta}" check --collector proton "${pcsampling}/gelu-pcsampling-cli.hatchet"
          --check "count(gelu_kernel) == 50"
  NOT_OUTPUT "PC sampling")

aorta_cli_test(pc_sampling.view_shows_samples_and_stalls_per_line RC 0
  COMMAND "${aorta}" view -m samples,stalled,time/ms "${pcsampling}/matmul-example-env.hatchet"
  OUTPUT "samples, stalled, time/ms of"
         "179777 +110832 +0\\.589 +└─ matmul_kernel"
         "49779 +33250 +0\\.000 +├─ [^ ]*matmul\\.py:63@matmul_kernel")

aorta_cli_test(pc_sampling.totals_are_metrics RC 0
  COMMAND "${aorta}" check --collector proton "${pcsampling}/matmul-example-env.hatchet"
          --check "proton_pc_samples == 179777" --check "proton_pc_stalled_samples == 110832")

aorta_cli_test(pc_sampling.no_sample_metric_without_samples RC 1
  COMMAND "${aorta}" check --collector proton "${pcsampling}/gelu-pcsampling-cli.hatchet"
          --check "proton_pc_samples > 0"
  OUTPUT "check FAIL  proton_pc_samples > 0")

# samples() and stalls() (issue 45, item 2) on the example's real capture: line 63 holds 49,779 of
# matmul_kernel's 179,777 samples (27.7%, the README's table), line 60 21,255 long_scoreboard
# stalls; the expected values come from those totals, which the view test above also reads.
aorta_cli_test(pc_sampling.line_share_check_passes RC 0
  COMMAND "${aorta}" check --collector proton "${pcsampling}/matmul-example-env.hatchet"
          --check "samples(^matmul_kernel$, matmul\\.py:63$) / samples(^matmul_kernel$) > 0.2"
  OUTPUT "check PASS  samples[^\n]*\\(actual 0\\.2769 \\(49779 / 179777\\)\\)")

aorta_cli_test(pc_sampling.line_share_check_fails_above_the_share RC 1
  COMMAND "${aorta}" check --collector proton "${pcsampling}/matmul-example-env.hatchet"
          --check "samples(^matmul_kernel$, matmul\\.py:63$) / samples(^matmul_kernel$) > 0.3"
  OUTPUT "check FAIL  samples"
         "matmul_kernel matmul\\.py:60  samples 48527  stalled 27304  top stall long_scoreboard 21255")

aorta_cli_test(pc_sampling.line_matching_nothing_is_not_measured RC 1
  COMMAND "${aorta}" check --collector proton "${pcsampling}/matmul-example-env.hatchet"
          --check "samples(^matmul_kernel$, matmul\\.py:65$) < 100"
  OUTPUT "actual: +unknown"
         "matches 'matmul\\\\\\.py:65\\$', so samples\\([^\n]*was not measured; did you mean: matmul\\.py:60, matmul\\.py:61, matmul\\.py:62")

aorta_cli_test(pc_sampling.stall_reason_of_a_line RC 0
  COMMAND "${aorta}" check --collector proton "${pcsampling}/matmul-example-env.hatchet"
          --check "stalls(^matmul_kernel$, long_scoreboard, matmul\\.py:60$) == 21255")

aorta_cli_test(pc_sampling.sample_check_without_samples_fails_even_with_opt_in RC 1
  COMMAND "${aorta}" check --collector proton "${pcsampling}/gelu-pcsampling-cli.hatchet"
          --check "samples(gelu_kernel)? == 0"
  OUTPUT "no capture has PC samples \\(captures: proton\\)")

aorta_cli_test(pc_sampling.example_recipe_checks_pass_on_its_capture RC 0
  COMMAND "${aorta}" check
          --recipe "${PROJECT_SOURCE_DIR}/examples/profiling/proton/nvidia-pcsampling/recipe.yaml"
          "${pcsampling}/matmul-example-env.hatchet"
  OUTPUT "check PASS  samples\\(\\^matmul_kernel\\$, matmul\\\\\\.py:63\\$\\)")
