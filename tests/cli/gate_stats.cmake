# The gate's statistics through the CLI on hand-made baselines (tests/fixtures/gate-stats): compare
# honours the gate line's alpha, a 1-trial baseline of a timed test is refused at record time.
set(gate_stats "${PROJECT_SOURCE_DIR}/tests/fixtures/gate-stats")

aorta_cli_test(gate_stats.compare_default_alpha RC 1
  COMMAND "${aorta}" compare "${gate_stats}/base" "${gate_stats}/slow" --gate "time +5%"
  OUTPUT "time_ms\\(k\\) +<= baseline \\+ 5% .* p=0\\.000123 .* SLOWER \\(fail\\)" "compare: REGRESSED")
aorta_cli_test(gate_stats.compare_gate_alpha RC 0
  COMMAND "${aorta}" compare "${gate_stats}/base" "${gate_stats}/slow" --gate "time +5%, alpha 0.0001"
  OUTPUT "time_ms\\(k\\) .* p=0\\.000123 .* AMBIGUOUS" "no confident regression")
aorta_cli_test(gate_stats.compare_alpha_conflict RC 64
  COMMAND "${aorta}" compare "${gate_stats}/base" "${gate_stats}/slow" --gate "time +5%, alpha 0.01"
          --alpha 0.05
  OUTPUT "--gate says alpha 0.01 but --alpha says 0.05")
aorta_cli_test(gate_stats.compare_one_trial_baseline RC 0
  COMMAND "${aorta}" compare "${gate_stats}/one-trial" "${gate_stats}/slow" --gate "time +5%"
  OUTPUT "1 baseline and 5 new sample\\(s\\)\\; a timed row needs at least 3 a side.*UNKNOWN")
aorta_cli_test(gate_stats.record_refuses_one_trial RC 1
  CLEAN "${out}/gate-stats"
  COMMAND "${aorta}" baseline record
          "${PROJECT_SOURCE_DIR}/tests/fixtures/h200-examples/aorta-results/proton.triton-softmax"
          --into "${out}/gate-stats"
  OUTPUT "has 1 trial\\(s\\) and timed rows" "Fix: run it again with --trials 5"
  NO_FILES "${out}/gate-stats/proton.triton-softmax.json")
aorta_cli_test(gate_stats.compare_other_card RC 0
  COMMAND "${aorta}" compare "${gate_stats}/base" "${gate_stats}/other-card"
  OUTPUT "warning: k: the baseline was recorded on card GPU-aaaa, this run is on card GPU-bbbb"
  NOT_OUTPUT "fingerprint gpu_uuid differs")
aorta_cli_test(gate_stats.compare_gate_requires_card RC 64
  COMMAND "${aorta}" compare "${gate_stats}/base" "${gate_stats}/slow" --gate "time +5%, card maybe"
  OUTPUT "takes 'same' or 'any'")
aorta_cli_test(gate_stats.show_calibration RC 0
  COMMAND "${aorta}" baseline show "${gate_stats}/base"
  OUTPUT "time_ms\\(k\\) .*\n    noise 1\\.35% over 5 trial\\(s\\)\\; \\+10% under time \\+5% caught with 95% at [3-6] trial\\(s\\) a side \\(alpha 0\\.05/1\\)")
# A row AMBIGUOUS under compare (alpha 0.0001, README.md): named under every policy; compare
# passes it by default, fails (1) or skips (77) it when asked by the gate line or --ambiguous.
aorta_cli_test(gate_stats.compare_ambiguous_default_pass RC 0
  COMMAND "${aorta}" compare "${gate_stats}/base" "${gate_stats}/slow" --gate "time +5%, alpha 0.0001"
  OUTPUT "compare: 1 row\\(s\\) AMBIGUOUS \\(k: time_ms\\(k\\)\\): passed under 'ambiguous pass'")
aorta_cli_test(gate_stats.compare_ambiguous_fail RC 1
  COMMAND "${aorta}" compare "${gate_stats}/base" "${gate_stats}/slow"
          --gate "time +5%, alpha 0.0001, ambiguous fail"
  OUTPUT "compare: 1 row\\(s\\) AMBIGUOUS \\(k: time_ms\\(k\\)\\): FAILED under 'ambiguous fail'"
         "compare: no confident regression")
aorta_cli_test(gate_stats.compare_ambiguous_skip RC 77
  COMMAND "${aorta}" compare "${gate_stats}/base" "${gate_stats}/slow" --gate "time +5%, alpha 0.0001"
          --ambiguous skip --json
  JSON "stdout::verdict=skip" "stdout::ambiguous_policy=skip" "stdout::ambiguous_rows/0=k: time_ms(k)")
aorta_cli_test(gate_stats.compare_ambiguous_conflict RC 64
  COMMAND "${aorta}" compare "${gate_stats}/base" "${gate_stats}/slow"
          --gate "time +5%, ambiguous pass" --ambiguous fail
  OUTPUT "--gate says ambiguous pass but --ambiguous says fail")
aorta_cli_test(gate_stats.compare_ambiguous_bad_option RC 64
  COMMAND "${aorta}" compare "${gate_stats}/base" "${gate_stats}/slow" --ambiguous maybe
  OUTPUT "'maybe' is not a policy: give fail, skip or pass")
# A baseline of nvbench's means compared with a run of its per-sample times (`sample_times: true`
# records the fingerprint key nvbench_time): compare warns, naming the key and both sides (a gated
# run skips; tests/cli/nvbench/sweep_sample_times.py).
aorta_cli_test(gate_stats.compare_sample_times_against_means RC 0
  COMMAND "${aorta}" compare "${gate_stats}/base" "${gate_stats}/sample-times"
  OUTPUT "warning: k: fingerprint nvbench_time differs: '\\(absent\\)' vs 'sample mean after the warm-up rule \\(--jsonbin\\)'")
