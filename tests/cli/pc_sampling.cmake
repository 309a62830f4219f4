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

# Issue 45, the missing half. aorta view's share column and top stall reasons on the real capture;
# the expected figures are the capture's arithmetic (an independent walk of the JSON): line 63
# holds 49,779 of 179,777 samples (27.7%), its largest reasons dispatch_stall 11,135 (22%),
# barrier 8,321 (17%) and mio_throttle 5,580 (11%); the kernel's long_scoreboard 29,312 (16%),
# barrier 22,999 (13%) and dispatch_stall 18,839 (10%).
aorta_cli_test(pc_sampling.view_shows_share_and_top_stalls_per_line_and_kernel RC 0
  COMMAND "${aorta}" view "${pcsampling}/matmul-example-env.hatchet"
  OUTPUT "time/ms, samples, share, stalled of"
         "179777 +100\\.0% +110832 +└─ matmul_kernel[^\n]* +stalls: long_scoreboard 16%, barrier 13%, dispatch_stall 10%"
         "49779 +27\\.7% +33250 +(├|└)─ [^ ]*matmul\\.py:63@matmul_kernel +stalls: dispatch_stall 22%, barrier 17%, mio_throttle 11%")

aorta_cli_test(pc_sampling.view_share_column_alone RC 0
  COMMAND "${aorta}" view -m share "${pcsampling}/matmul-example-env.hatchet"
  OUTPUT "share of"
         "27\\.0% [^ ]*matmul\\.py:60@matmul_kernel +stalls: long_scoreboard 44%, wait 4%, selected 3%")

# stalls() over samples() (item 1): long_scoreboard holds 29,312 of the kernel's 179,777 samples.
aorta_cli_test(pc_sampling.stall_share_mixes_stalls_and_samples RC 0
  COMMAND "${aorta}" check --collector proton "${pcsampling}/matmul-example-env.hatchet"
          --check "stalls(^matmul_kernel$, long_scoreboard) / samples(^matmul_kernel$) > 0.16"
  OUTPUT "check PASS  stalls[^\n]*\\(actual 0\\.163[0-9]* \\(29312 / 179777\\)\\)")

aorta_cli_test(pc_sampling.stall_share_fails_above_it RC 1
  COMMAND "${aorta}" check --collector proton "${pcsampling}/matmul-example-env.hatchet"
          --check "stalls(^matmul_kernel$, long_scoreboard) / samples(^matmul_kernel$) > 0.17"
  OUTPUT "check FAIL  stalls")

aorta_cli_test(pc_sampling.ratio_of_samples_and_time_is_refused RC 64
  COMMAND "${aorta}" check --collector proton "${pcsampling}/matmul-example-env.hatchet"
          --check "samples(^matmul_kernel$) / time_ms(^matmul_kernel$) > 0"
  OUTPUT "samples\\( as the denominator: both sides of a ratio use the same function \\(samples\\( and stalls\\( may share one\\)")

# The per-kernel, per-line and per-reason samples are metrics (what a baseline keeps).
aorta_cli_test(pc_sampling.line_and_reason_metrics RC 0
  COMMAND "${aorta}" check --collector proton "${pcsampling}/matmul-example-env.hatchet"
          --check "proton_pc_kernel_samples.matmul_kernel == 179777"
          --check "proton_pc_line_samples.matmul_kernel/matmul.py:63 == 49779"
          --check "proton_pc_stalls.matmul_kernel/long_scoreboard == 29312"
          --check "proton_pc_line_stalls.matmul_kernel/matmul.py:63/dispatch_stall == 11135")
