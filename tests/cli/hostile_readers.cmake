# Hostile inputs, round two (issue 18), the readers' findings: each case crashed aorta, hung it or
# turned a hostile capture into a pass. Inputs come from make_hostile_reader_inputs.py; the
# numbers in the comments are the issue's.
set(hostile_readers "${out}/hostile_reader_inputs")
aorta_cli_test(hostile_readers.make_inputs RC 0 FIXTURES_SETUP aorta_cli_hostile_readers
  COMMAND python3 "${CMAKE_CURRENT_SOURCE_DIR}/make_hostile_reader_inputs.py" "${hostile_readers}")

# (1) 100 KB of nested MessagePack: SIGSEGV in check and view. Now a capture error, 1.
aorta_cli_test(hostile_readers.deep_msgpack_check RC 1 FIXTURES_REQUIRED aorta_cli_hostile_readers
  COMMAND "${aorta}" check --collector proton "${hostile_readers}/deep_msgpack"
  OUTPUT "proton\\.hatchet_msgpack: MessagePack byte [0-9]+: nested deeper than 512 levels")
aorta_cli_test(hostile_readers.deep_msgpack_view RC 1 FIXTURES_REQUIRED aorta_cli_hostile_readers
  COMMAND "${aorta}" view "${hostile_readers}/deep_msgpack/proton.hatchet_msgpack"
  OUTPUT "nested deeper than 512 levels")

# (3) A baseline nested 10^6 deep: SIGSEGV in baseline show.
aorta_cli_test(hostile_readers.deep_baseline_show RC 1 FIXTURES_REQUIRED aorta_cli_hostile_readers
  COMMAND "${aorta}" baseline show "${hostile_readers}/deep_baseline/hotspot.json"
  OUTPUT "hotspot\\.json.*nested deeper than 512 levels")

# (4) A result.json nested 10^6 deep: SIGSEGV in compare.
aorta_cli_test(hostile_readers.deep_result_compare RC 1 FIXTURES_REQUIRED aorta_cli_hostile_readers
  COMMAND "${aorta}" compare "${hostile_readers}/deep_result" "${hostile_readers}/deep_result"
  OUTPUT "result\\.json is not valid JSON: nested deeper than 512 levels")

# (13) A kernel count of 2^64-1 gave proton_kernel_count = -1, and `< 100` passed.
aorta_cli_test(hostile_readers.count_u64_max_fails RC 1 FIXTURES_REQUIRED aorta_cli_hostile_readers
  COMMAND "${aorta}" check --collector proton "${hostile_readers}/count_u64_max"
          --check "proton_kernel_count < 100"
  NOT_OUTPUT "proton_kernel_count += +-1")

# (15) proton.hatchet~ and proton.hatchet.bak were summed in (20 launches became 48).
aorta_cli_test(hostile_readers.backup_files_not_summed RC 0
  FIXTURES_REQUIRED aorta_cli_hostile_readers
  COMMAND "${aorta}" check --collector proton "${hostile_readers}/backups"
          --check "proton_kernel_count == 20")

# (16) A chrome-trace dur of 1e306 µs became +inf and passed `time_ms(k) > 1`.
aorta_cli_test(hostile_readers.chrome_trace_dur_overflow RC 1
  FIXTURES_REQUIRED aorta_cli_hostile_readers
  COMMAND "${aorta}" check --collector proton "${hostile_readers}/dur_overflow"
          --check "time_ms(k) > 1"
  OUTPUT "proton\\.chrome_trace: kernel 'k' time \\(ns\\): duration inf is not a finite number")
