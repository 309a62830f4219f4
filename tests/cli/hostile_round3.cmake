# Hostile inputs, round three (issue 46): recipes, mitigations files, numeric flags and messages.
# Each case is a finding of the third outside audit; the small inputs are written here at
# configure time, FIFOs by a setup test (a FIFO cannot live in the source tree).
set(hostile3 "${CMAKE_CURRENT_BINARY_DIR}/hostile3_inputs")
file(MAKE_DIRECTORY "${hostile3}")
set(cells_recipe "${PROJECT_SOURCE_DIR}/examples/cells/callgrind-ab/recipe.yaml")

aorta_cli_test(hostile3.make_fifos RC 0 FIXTURES_SETUP aorta_cli_hostile3
  COMMAND sh -c "rm -f '${hostile3}/recipe.fifo' '${hostile3}/mitigations.fifo' '${hostile3}/baseline.fifo' && mkfifo '${hostile3}/recipe.fifo' '${hostile3}/mitigations.fifo' '${hostile3}/baseline.fifo'")

# A FIFO given as --recipe or --mitigations-file blocked every command that loads a recipe until a
# signal (which then exited 64): the loader read with a plain stream. Now the bounded input layer
# refuses it at the open. TIMEOUT: a regression fails here instead of hanging.
set(fifo_recipe_refused "recipe\\.fifo: cannot read the recipe file given to --recipe / RECIPE: is a FIFO \\(named pipe\\), not a regular file")
aorta_cli_test(hostile3.fifo_recipe_validate RC 64 TIMEOUT 20 FIXTURES_REQUIRED aorta_cli_hostile3
  COMMAND "${aorta}" validate "${hostile3}/recipe.fifo"
  OUTPUT "${fifo_recipe_refused}")
aorta_cli_test(hostile3.fifo_recipe_sweep_run RC 64 TIMEOUT 20 FIXTURES_REQUIRED aorta_cli_hostile3
  CLEAN "${out}/hostile3.fifo_recipe_sweep_run"
  COMMAND "${aorta}" sweep run --recipe "${hostile3}/recipe.fifo"
          --output "${out}/hostile3.fifo_recipe_sweep_run" -- /bin/true
  OUTPUT "${fifo_recipe_refused}")
aorta_cli_test(hostile3.fifo_recipe_ab RC 64 TIMEOUT 20 FIXTURES_REQUIRED aorta_cli_hostile3
  CLEAN "${out}/hostile3.fifo_recipe_ab"
  COMMAND "${aorta}" ab --recipe "${hostile3}/recipe.fifo" --output "${out}/hostile3.fifo_recipe_ab"
          --base /bin/true --head /bin/true
  OUTPUT "${fifo_recipe_refused}")
aorta_cli_test(hostile3.fifo_recipe_calibrate RC 64 TIMEOUT 20 FIXTURES_REQUIRED aorta_cli_hostile3
  CLEAN "${out}/hostile3.fifo_recipe_calibrate"
  COMMAND "${aorta}" calibrate --recipe "${hostile3}/recipe.fifo"
          --output "${out}/hostile3.fifo_recipe_calibrate/out"
          --into "${out}/hostile3.fifo_recipe_calibrate/base" -- /bin/true
  OUTPUT "${fifo_recipe_refused}")
aorta_cli_test(hostile3.fifo_recipe_check RC 64 TIMEOUT 20 FIXTURES_REQUIRED aorta_cli_hostile3
  COMMAND "${aorta}" check --recipe "${hostile3}/recipe.fifo"
          "${PROJECT_SOURCE_DIR}/tests/fixtures/rocprof/flat_stats"
  OUTPUT "${fifo_recipe_refused}")
aorta_cli_test(hostile3.fifo_mitigations_file RC 64 TIMEOUT 20 FIXTURES_REQUIRED aorta_cli_hostile3
  COMMAND "${aorta}" validate "${recipes}/plain.yaml" --mitigations-file "${hostile3}/mitigations.fifo"
  OUTPUT "mitigations\\.fifo: cannot read the mitigations file given to --mitigations-file: is a FIFO \\(named pipe\\)")
# A device was read up to the size limit; now it is refused for what it is.
aorta_cli_test(hostile3.device_recipe RC 64 TIMEOUT 20
  COMMAND "${aorta}" validate /dev/zero
  OUTPUT "/dev/zero: cannot read the recipe file given to --recipe / RECIPE: is a character device, not a regular file")

# --seed -1 and seeds past 2^64 were read as 2^64 - 1 without a word.
foreach(seed IN ITEMS -1 18446744073709551616 99999999999999999999999 12x)
  aorta_cli_test(hostile3.seed_refused_${seed} RC 64
    COMMAND "${aorta}" sweep run --recipe "${cells_recipe}" --output "${out}/hostile3.seed_${seed}"
            --dry-run --seed=${seed} -- /bin/true
    OUTPUT "'${seed}' is not a seed: give a whole number from 0 to 18446744073709551615")
endforeach()
aorta_cli_test(hostile3.seed_largest_accepted RC 0
  COMMAND "${aorta}" sweep run --recipe "${cells_recipe}" --output "${out}/hostile3.seed_largest"
          --dry-run --seed 18446744073709551615 -- /bin/true
  OUTPUT "18446744073709551615")
aorta_cli_test(hostile3.ab_seed_refused RC 64
  COMMAND "${aorta}" ab --recipe "${recipes}/plain.yaml" --output "${out}/hostile3.ab_seed"
          --base /bin/true --head /bin/true --seed=-1
  OUTPUT "'-1' is not a seed")
# --baseline-cell "" was ignored (the recipe's baseline cell judged instead).
# (sh: a CMake list cannot hold an empty argument)
aorta_cli_test(hostile3.baseline_cell_empty RC 64
  COMMAND sh -c "exec '${aorta}' sweep run --recipe '${cells_recipe}' --output '${out}/hostile3.baseline_cell_empty' --dry-run --baseline-cell '' -- /bin/true"
  OUTPUT "--baseline-cell: is empty: give a cell's name")
# A gate with a trailing comma was read as the gate without it.
aorta_cli_test(hostile3.gate_trailing_comma RC 64
  COMMAND "${aorta}" validate "${recipes}/plain.yaml" --gate "time +5%,"
  OUTPUT "--gate: gate 'time \\+5%,': item '' is empty \\(a comma with nothing after it")
file(WRITE "${hostile3}/gate_trailing_comma.yaml"
  "schema_version: 1\nmode: probe\ngate: \"time +5%,\"\n")
aorta_cli_test(hostile3.recipe_gate_trailing_comma RC 64
  COMMAND "${aorta}" validate "${hostile3}/gate_trailing_comma.yaml"
  OUTPUT "gate_trailing_comma\\.yaml:3:7: .*item '' is empty")

# NUL in a mitigation's command or args was accepted (refused in env values): exec would have
# run a command cut at the NUL.
file(WRITE "${hostile3}/nul_command.yaml"
  "schema_version: 1\nmode: probe\nmitigations:\n  bad: {command: [\"/bin/tr\\0ue\"]}\nmitigation_axis: [none, bad]\n")
aorta_cli_test(hostile3.nul_in_mitigation_command RC 64
  COMMAND "${aorta}" validate "${hostile3}/nul_command.yaml"
  OUTPUT "nul_command\\.yaml:4:19: recipe\\.mitigations\\.bad\\.command: contains a NUL byte")
file(WRITE "${hostile3}/nul_args.json" "{\"bad\": {\"args\": [\"--x\", \"a\\u0000b\"]}}\n")
file(WRITE "${hostile3}/cells_bad.yaml"
  "schema_version: 1\nmode: probe\nmitigation_axis: [none, bad]\n")
aorta_cli_test(hostile3.nul_in_mitigations_file_args RC 64
  COMMAND "${aorta}" validate "${hostile3}/cells_bad.yaml" --mitigations-file "${hostile3}/nul_args.json"
  OUTPUT "nul_args\\.json:1:26: mitigations\\.bad\\.args: contains a NUL byte")

# Errors in a mitigations file named the recipe (recipe.mitigations...) and suggested renaming it
# to .yaml, which a mitigations file refuses too.
file(WRITE "${hostile3}/bad_key.json" "{\"fast\": {\"evn\": {\"A\": \"1\"}}}\n")
aorta_cli_test(hostile3.mitigations_file_error_names_the_file RC 64
  COMMAND "${aorta}" validate "${hostile3}/cells_bad.yaml" --mitigations-file "${hostile3}/bad_key.json"
  OUTPUT "bad_key\\.json:1:11: mitigations\\.fast: unknown key 'evn'"
  NOT_OUTPUT "recipe\\.mitigations")
file(WRITE "${hostile3}/trailing_comma.json" "{\"fast\": {\"env\": {\"A\": \"1\"}},}\n")
aorta_cli_test(hostile3.mitigations_file_not_strict_json RC 64
  COMMAND "${aorta}" validate "${hostile3}/cells_bad.yaml" --mitigations-file "${hostile3}/trailing_comma.json"
  OUTPUT "trailing_comma\\.json:1:[0-9]+: mitigations file: is not strict JSON"
         "a mitigations file is JSON whatever its name"
  NOT_OUTPUT "rename the file to \\.yaml")

# `baseline show FIFO` said the FIFO does not exist.
aorta_cli_test(hostile3.baseline_show_fifo RC 1 TIMEOUT 20 FIXTURES_REQUIRED aorta_cli_hostile3
  COMMAND "${aorta}" baseline show "${hostile3}/baseline.fifo"
  OUTPUT "baseline\\.fifo is a FIFO \\(named pipe\\), not a file or directory aorta reads"
  NOT_OUTPUT "does not exist")

# `compare` of two results of test t without kernels said "no test in common (base: t; new: t)".
aorta_cli_test(hostile3.compare_same_test_no_rows RC 64
  CLEAN "${out}/hostile3.compare_same_test_no_rows"
  COMMAND sh -c "'${aorta}' sweep run --recipe '${recipes}/plain.yaml' --output '${out}/hostile3.compare_same_test_no_rows/base/t' -- /bin/true > /dev/null && '${aorta}' sweep run --recipe '${recipes}/plain.yaml' --output '${out}/hostile3.compare_same_test_no_rows/new/t' -- /bin/true > /dev/null && exec '${aorta}' compare '${out}/hostile3.compare_same_test_no_rows/base' '${out}/hostile3.compare_same_test_no_rows/new'"
  OUTPUT "hold the same test\\(s\\) \\(t\\) but no row to compare"
  NOT_OUTPUT "no test in common")

# A baseline directory that cannot be made (here under /sys, read-only or not permitted for
# everyone) was reported as ENOENT of the temporary file, not the real error.
aorta_cli_test(hostile3.baseline_record_unwritable_into RC 1
  CLEAN "${out}/hostile3.baseline_record_unwritable_into"
  COMMAND sh -c "'${aorta}' sweep run --recipe '${recipes}/plain.yaml' --output '${out}/hostile3.baseline_record_unwritable_into/t' -- /bin/true > /dev/null && exec '${aorta}' baseline record '${out}/hostile3.baseline_record_unwritable_into/t' --into /sys/aorta-hostile3-no-such/baselines"
  OUTPUT "cannot create the baseline directory /sys/aorta-hostile3-no-such/baselines: (Read-only file system|Permission denied|Operation not permitted)"
  NOT_OUTPUT "No such file or directory")

# A payload that could not be started left no result.json for its trial, and in a cells run the
# remaining cells never ran and no matrix was written. Now the trial fails with the reason in its
# record, and the run goes on.
aorta_cli_test(hostile3.payload_cannot_start RC 1
  CLEAN "${out}/hostile3.payload_cannot_start"
  COMMAND "${aorta}" sweep run --recipe "${recipes}/trials3.yaml"
          --output "${out}/hostile3.payload_cannot_start" -- ./no-such-program
  OUTPUT "trial 0: fail \\(cannot start './no-such-program': No such file or directory\\)"
         "trial 2: fail \\(cannot start" "3 trial\\(s\\): 0 passed, 3 failed"
  JSON "${out}/hostile3.payload_cannot_start/trial_0/result.json::verdict=fail"
       "${out}/hostile3.payload_cannot_start/trial_2/result.json::verdict=fail")
file(WRITE "${hostile3}/cells_missing_command.yaml"
  "schema_version: 1\nmode: probe\ntrials: 1\nmitigations:\n  missing: {command: [./no-such-program]}\nmitigation_axis: [none, missing]\n")
aorta_cli_test(hostile3.cells_payload_cannot_start RC 1
  CLEAN "${out}/hostile3.cells_payload_cannot_start"
  COMMAND "${aorta}" sweep run --recipe "${hostile3}/cells_missing_command.yaml"
          --output "${out}/hostile3.cells_payload_cannot_start" --seed 1 -- /bin/true
  OUTPUT "cell missing trial 0: fail \\(cannot start './no-such-program'" "cell none trial 0: pass"
  FILES "${out}/hostile3.cells_payload_cannot_start/matrix.json"
  JSON "${out}/hostile3.cells_payload_cannot_start/missing/trial_0/result.json::verdict=fail"
       "${out}/hostile3.cells_payload_cannot_start/none/trial_0/result.json::verdict=pass")

# calibrate refused a cells recipe or a --test-name that cannot be a file name only after running
# every trial; now before the first.
aorta_cli_test(hostile3.calibrate_cells_refused_first RC 64
  CLEAN "${out}/hostile3.calibrate_cells_refused_first"
  COMMAND "${aorta}" calibrate --recipe "${hostile3}/cells_missing_command.yaml" --trials 3
          --output "${out}/hostile3.calibrate_cells_refused_first/out"
          --into "${out}/hostile3.calibrate_cells_refused_first/base" -- /bin/true
  OUTPUT "calibrate: [^ ]*cells_missing_command\\.yaml has cells"
  NO_FILES "${out}/hostile3.calibrate_cells_refused_first/out")
aorta_cli_test(hostile3.calibrate_test_name_refused_first RC 64
  CLEAN "${out}/hostile3.calibrate_test_name_refused_first"
  COMMAND "${aorta}" calibrate --recipe "${recipes}/plain.yaml" --trials 3 --test-name ../x
          --output "${out}/hostile3.calibrate_test_name_refused_first/out"
          --into "${out}/hostile3.calibrate_test_name_refused_first/base" -- /bin/true
  OUTPUT "--test-name '\\.\\./x' cannot become a path"
  NO_FILES "${out}/hostile3.calibrate_test_name_refused_first/out")

# `ab --base /tmp` (a directory): the base cell's trial is recorded as failed, head still runs.
aorta_cli_test(hostile3.ab_base_cannot_start RC 1
  CLEAN "${out}/hostile3.ab_base_cannot_start"
  COMMAND "${aorta}" ab --recipe "${recipes}/plain.yaml" --output "${out}/hostile3.ab_base_cannot_start"
          --base /tmp --head /bin/true --trials 1 --seed 1
  OUTPUT "cell base trial 0: fail: cannot start '/tmp'"
  FILES "${out}/hostile3.ab_base_cannot_start/matrix.json"
  JSON "${out}/hostile3.ab_base_cannot_start/base/trial_0/result.json::verdict=fail"
       "${out}/hostile3.ab_base_cannot_start/head/trial_0/result.json::verdict=pass")
