# Fault cases that need a real process tree and real signals (issue 10): tests/cli/lifetime/
# lifetime.py starts the real aorta, signals it, SIGKILLs it, closes its stdout, runs two of it
# into one directory, and checks exit codes, result.json and that no payload process survives.
find_package(Python3 REQUIRED COMPONENTS Interpreter)
foreach(case IN ITEMS interrupt_sigint interrupt_sigterm interrupt_sighup
                      ignored_term_is_killed_after_grace second_signal_kills_at_once
                      sigkill_of_aorta closed_stdout escaped_daemon second_run_is_refused
                      dead_owner_does_not_block usage_refusal_before_the_lock hang_after_capture
                      check_sigint_reading_rocpd check_sigterm_reading_rocpd
                      check_sigint_during_the_scan)
  # `aorta check` interrupted while it reads: read_interrupt.py, on lifetime.py's helpers.
  set(script lifetime.py)
  if(case MATCHES "^check_")
    set(script read_interrupt.py)
  endif()
  add_test(NAME aorta.cli.lifetime.${case}
    COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/lifetime/${script}
            --aorta "${aorta}" --work "${out}/lifetime" ${case})
  set_tests_properties(aorta.cli.lifetime.${case} PROPERTIES
    LABELS cli TIMEOUT 180 SKIP_RETURN_CODE 77)
endforeach()

# Timeouts say the configured limit and where it came from, and what the grace did.
aorta_cli_test(run.timeout_ignored_term RC 1 TIMEOUT 90
  CLEAN "${out}/run.timeout_ignored_term"
  COMMAND "${aorta}" sweep run --recipe "${recipes}/timeout.yaml"
          --output "${out}/run.timeout_ignored_term" -- /bin/sh -c "trap '' TERM && sleep 60"
  OUTPUT "trial 0 FAILED: payload timed out after 1\\.0 s \\(timeout: 1 from [^)]*timeout\\.yaml\\)\\; ignored SIGTERM, killed by SIGKILL after the 5 s grace"
  JSON "${out}/run.timeout_ignored_term/trial_0/result.json::timed_out=ON"
       "${out}/run.timeout_ignored_term/trial_0/result.json::signal=9")

# Degenerate --output paths are usage errors; nothing runs and nothing is written. (CMake drops
# an empty argument, so the empty path is given as `--output ""` through the shell.)
aorta_cli_test(refuse.output_empty RC 64
  COMMAND /bin/sh -c "exec \"$0\" sweep run --recipe \"$1\" --output '' -- /bin/true"
          "${aorta}" "${recipes}/plain.yaml"
  OUTPUT "--output is empty"
  NOT_OUTPUT "trial 0: running"
  NO_FILES "${CMAKE_CURRENT_BINARY_DIR}/trial_0")
aorta_cli_test(refuse.output_root RC 64
  COMMAND "${aorta}" sweep run --recipe "${recipes}/plain.yaml" --output "/" -- /bin/true
  OUTPUT "--output / is the file system root"
  NOT_OUTPUT "trial 0: running")
aorta_cli_test(refuse.output_a_file RC 64
  COMMAND "${aorta}" sweep run --recipe "${recipes}/plain.yaml"
          --output "${recipes}/plain.yaml" -- /bin/true
  OUTPUT "plain\\.yaml exists and is not a directory"
  NOT_OUTPUT "trial 0: running")

# `timeout` out of its range is refused at load (never wrapped around, never "no limit").
foreach(id IN ITEMS 1e10 0_0001 m1 _nan _inf 0)
  aorta_cli_test(refuse.timeout_${id} RC 64
    COMMAND "${aorta}" sweep run --recipe "${recipes}/bad/timeout_${id}.yaml"
            --output "${out}/unused" -- /bin/true
    OUTPUT "timeout_${id}\\.yaml:2:10: recipe\\.timeout: "
    NOT_OUTPUT "trial 0: running")
endforeach()
aorta_cli_test(refuse.timeout_range_is_named RC 64
  COMMAND "${aorta}" sweep run --recipe "${recipes}/bad/timeout_1e10.yaml"
          --output "${out}/unused" -- /bin/true
  OUTPUT "1e10 s is out of range\\; allowed: 0\\.001 to 2592000 seconds \\(30 days\\)")
aorta_cli_test(refuse.timeout_too_small RC 64
  COMMAND "${aorta}" sweep run --recipe "${recipes}/bad/timeout_0_0001.yaml"
          --output "${out}/unused" -- /bin/true
  OUTPUT "0\\.0001 s is out of range")
