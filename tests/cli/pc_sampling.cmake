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
