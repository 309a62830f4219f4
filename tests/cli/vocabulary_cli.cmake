# Issue 47: one CLI vocabulary (docs/cli.md, "One vocabulary") and the small traps of the first
# hour: help as a command, what a missing or mistyped command is told, the `--` hint of every
# command that takes a payload, collector names with "did you mean", what `aorta collectors` says
# about this machine.
# The README's collector list and command overview follow the CLI.
add_test(NAME aorta.cli.readme_claims
  COMMAND ${CMAKE_COMMAND} -DAORTA=$<TARGET_FILE:aorta> -DREADME=${PROJECT_SOURCE_DIR}/README.md
    -P ${CMAKE_CURRENT_SOURCE_DIR}/readme_claims.cmake)
set_tests_properties(aorta.cli.readme_claims PROPERTIES LABELS cli)
add_test(NAME aorta.cli.vocabulary.shared_options
  COMMAND ${CMAKE_COMMAND} -DAORTA=$<TARGET_FILE:aorta> -P ${CMAKE_CURRENT_SOURCE_DIR}/vocabulary.cmake)
set_tests_properties(aorta.cli.vocabulary.shared_options PROPERTIES LABELS cli)

aorta_cli_test(vocabulary.bare_aorta RC 64
  COMMAND "${aorta}"
  OUTPUT "^aorta: error: no command given\\. Usage: aorta COMMAND \\[OPTIONS\\] [^\n]*the commands are sweep, ab, calibrate, [^\n]*help"
  NOT_OUTPUT "A subcommand is required")
aorta_cli_test(vocabulary.help_command RC 0
  COMMAND "${aorta}" help
  OUTPUT "^aorta: GPU profiling as a test" "Usage: aorta \\[OPTIONS\\] SUBCOMMAND" "\n  help ")
aorta_cli_test(vocabulary.help_of_a_subcommand RC 0
  COMMAND "${aorta}" help sweep run
  OUTPUT "Usage: aorta sweep run \\[OPTIONS\\]" "--recipe RECIPE REQUIRED")
aorta_cli_test(vocabulary.help_of_no_command RC 64
  COMMAND "${aorta}" help sweeep
  OUTPUT "'sweeep' is not an aorta command\\. Did you mean 'aorta sweep'\\?")
aorta_cli_test(vocabulary.run_means_sweep_run RC 64
  COMMAND "${aorta}" run --recipe r.yaml
  OUTPUT "aorta: error: 'run' is not an aorta command\\. Did you mean 'aorta sweep run'\\?")
aorta_cli_test(vocabulary.close_command RC 64
  COMMAND "${aorta}" colectors
  OUTPUT "Did you mean 'aorta collectors'\\?")
# Every command that takes a payload says so, with the stray words in the order given.
aorta_cli_test(vocabulary.sweep_stray_in_order RC 64
  COMMAND "${aorta}" sweep run --recipe "${recipes}/plain.yaml" --output "${out}/unused" first second third
  OUTPUT "sweep run: unexpected argument\\(s\\): first second third\\; missing '--' separator before the command\\? Usage: aorta sweep run --recipe RECIPE")
aorta_cli_test(vocabulary.ab_separator_hint RC 64
  COMMAND "${aorta}" ab --recipe "${recipes}/plain.yaml" --output "${out}/unused" --base /bin/true --head /bin/true first second
  OUTPUT "ab: unexpected argument\\(s\\): first second\\; missing '--' separator before the command\\? Usage: aorta ab --recipe RECIPE --output DIR --base PROG --head PROG")
aorta_cli_test(vocabulary.calibrate_separator_hint RC 64
  COMMAND "${aorta}" calibrate --recipe "${recipes}/plain.yaml" --output "${out}/unused" --into "${out}/unused" /bin/true
  OUTPUT "calibrate: unexpected argument\\(s\\): /bin/true\\; missing '--' separator")
aorta_cli_test(vocabulary.no_hint_without_payload RC 64
  COMMAND "${aorta}" report "${out}/unused" stray
  OUTPUT "report: unexpected argument\\(s\\): stray\\; see 'aorta report --help'"
  NOT_OUTPUT "missing '--'")
# --collectors is the list option everywhere; --collect stays accepted.
aorta_cli_test(vocabulary.collectors_option RC 0
  COMMAND "${aorta}" validate "${recipes}/plain.yaml" --collectors callgrind
  OUTPUT "valid \\(collectors \\[callgrind\\]")
aorta_cli_test(vocabulary.collect_alias RC 0
  COMMAND "${aorta}" validate "${recipes}/plain.yaml" --collect callgrind
  OUTPUT "valid \\(collectors \\[callgrind\\]")
aorta_cli_test(vocabulary.collector_did_you_mean_check RC 64
  COMMAND "${aorta}" check "${h200}/vecadd_cupti/proton.hatchet" --collector callgrnd
  OUTPUT "--collector 'callgrnd' cannot be read[^\n]*Did you mean 'callgrind'\\?")
aorta_cli_test(vocabulary.collector_did_you_mean_sweep RC 64
  COMMAND "${aorta}" sweep run --recipe "${recipes}/plain.yaml" --output "${out}/unused"
          --collectors callgrnd -- /bin/true
  OUTPUT "--collectors callgrnd: unknown collector\\(s\\) \\[callgrnd\\][^\n]*Did you mean 'callgrind'\\?")
aorta_cli_test(vocabulary.ab_takes_the_sweep_options RC 0
  CLEAN "${out}/vocabulary_ab"
  COMMAND "${aorta}" ab --recipe "${recipes}/plain.yaml" --output "${out}/vocabulary_ab"
          --base /bin/true --head /bin/true --trials 1 --timeout 30 --measure all --platforms cpu,nvidia
  OUTPUT "aorta: PASS: 2 trial\\(s\\): 2 passed")

# `aorta collectors` says which collectors can capture here, and why not the others.
aorta_cli_test(collectors.says_what_runs_here RC 0
  COMMAND "${aorta}" collectors
  OUTPUT "collector +platforms +here +what it captures"
         "\nnumerics +- +- +accepted for the original"
         "\nnot usable on this machine:\n"
         "\n  amd_log: validated only: a recipe may name it, nothing captures")
aorta_cli_test(collectors.json_says_what_runs_here RC 0
  COMMAND "${aorta}" collectors --json
  JSON "stdout::0/name=rocprof" "stdout::0/usable_here=*" "stdout::0/why_not=*"
       "stdout::7/usable_here=OFF"
       "stdout::7/why_not=validated only: a recipe may name it, nothing captures")
# `aorta check` on an empty directory says there is nothing to read, not "use --collector".
# (WORKING_DIRECTORY creates the directory after CLEAN removed it.)
aorta_cli_test(check.empty_directory_named RC 64
  CLEAN "${out}/empty_capture_dir" WORKING_DIRECTORY "${out}/empty_capture_dir"
  COMMAND "${aorta}" check "${out}/empty_capture_dir"
  OUTPUT "empty_capture_dir: an empty directory, no capture to read\\. A run writes its captures to OUTPUT/trial_N/COLLECTOR/"
  NOT_OUTPUT "name the reader with --collector")
