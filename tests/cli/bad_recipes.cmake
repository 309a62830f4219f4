# Recipes and command lines aorta must refuse with 64 before anything runs, each with a message
# that names where (file:line:column or the flag), the key, and the fix.
set(bad "${recipes}/bad")

function(aorta_cli_refused name)
  aorta_cli_test(${name} RC 64 NOT_OUTPUT "trial 0: running" ${ARGN})
endfunction()

aorta_cli_refused(refuse.unknown_key
  COMMAND "${aorta}" sweep run --recipe "${bad}/unknown_key.yaml" --output "${out}/unused"
          -- /bin/true
  OUTPUT "unknown_key\\.yaml:2:1: recipe: unknown key 'trails'\\. Did you mean 'trials'\\?")

aorta_cli_refused(refuse.proton_backend
  COMMAND "${aorta}" sweep run --recipe "${bad}/proton_backend.yaml" --output "${out}/unused"
          -- python3 x.py
  OUTPUT "proton_backend\\.yaml:4:14: recipe\\.collect\\.proton\\.backend: 'cuptii' is not a proton backend"
         "Did you mean 'cupti'\\?")

# Proton's CLI has no output-format flag (Triton 3.5.1 to 3.9.0): hatchet_msgpack needs mode: env.
aorta_cli_refused(refuse.proton_format_under_cli
  COMMAND "${aorta}" sweep run --recipe "${bad}/proton_format_cli.yaml" --output "${out}/unused"
          -- python3 x.py
  OUTPUT "proton_format_cli\\.yaml:4:13: recipe\\.collect\\.proton\\.format: 'hatchet_msgpack' cannot be chosen under mode: cli"
         "Fix: set mode: env")
aorta_cli_refused(refuse.proton_format_unknown
  COMMAND "${aorta}" validate "${bad}/proton_format_unknown.yaml"
  OUTPUT "proton_format_unknown\\.yaml:5:13: recipe\\.collect\\.proton\\.format: 'msgpack' is not a proton output format; allowed: hatchet, hatchet_msgpack, chrome_trace\\.")

aorta_cli_refused(refuse.rocprof_proton_auto
  COMMAND "${aorta}" sweep run --recipe "${bad}/rocprof_proton_auto.yaml" --output "${out}/unused"
          -- python3 x.py
  OUTPUT "rocprof_proton_auto\\.yaml:5:14: recipe\\.collect\\.proton\\.backend: rocprof and proton with backend: auto"
         "HSA queue interceptor" "proton: {backend: instrumentation}")

aorta_cli_refused(refuse.ncu_proton_cupti
  COMMAND "${aorta}" sweep run --recipe "${bad}/ncu_proton_cupti.yaml" --output "${out}/unused"
          -- python3 x.py
  OUTPUT "ncu_proton_cupti\\.yaml:5:14: recipe\\.collect\\.proton\\.backend: ncu and proton with backend: cupti cannot run together"
         "cuptiSubscribe with error 39")

aorta_cli_refused(refuse.callgrind_proton
  COMMAND "${aorta}" sweep run --recipe "${bad}/callgrind_proton.yaml" --output "${out}/unused"
          -- python3 x.py
  OUTPUT "callgrind_proton\\.yaml:2:[0-9]+: recipe\\.collect\\.callgrind: callgrind cannot run together with the GPU collector\\(s\\) \\[proton\\]")

aorta_cli_refused(refuse.check_expression
  COMMAND "${aorta}" sweep run --recipe "${bad}/check_expression.yaml" --output "${out}/unused"
          -- /bin/true
  OUTPUT "check_expression\\.yaml:3:5: check: check expression error at column 21: expected a number")

aorta_cli_refused(refuse.check_flag
  COMMAND "${aorta}" sweep run --recipe "${recipes}/plain.yaml" --output "${out}/unused"
          --check "count(x) >> 2" -- /bin/true
  OUTPUT "--check: check expression error at column 11")

# Refused when the recipe loads (it does not depend on the command): validate says no, and so
# does a real run on a machine without any GPU, before the GPU check could turn it into a skip.
aorta_cli_refused(refuse.roctracer_under_cli_validate
  COMMAND "${aorta}" validate "${recipes}/proton_cli_roctracer.yaml"
  OUTPUT "proton_cli_roctracer\\.yaml:[0-9]+:[0-9]+: recipe\\.collect\\.proton\\.backend: cannot pin backend 'roctracer' under mode: cli")
aorta_cli_refused(refuse.roctracer_under_cli_run
  COMMAND "${aorta}" sweep run --recipe "${recipes}/proton_cli_roctracer.yaml"
          --output "${out}/unused" -- python3 x.py
  OUTPUT "cannot pin backend 'roctracer' under mode: cli")
aorta_cli_refused(refuse.roctracer_under_cli
  COMMAND "${aorta}" sweep run --recipe "${recipes}/proton_cli_roctracer.yaml"
          --output "${out}/unused" --dry-run -- python3 x.py
  OUTPUT "cannot pin backend 'roctracer' under mode: cli" "proton: {mode: env}")

aorta_cli_refused(refuse.proton_cli_not_python
  COMMAND "${aorta}" sweep run --recipe "${recipes}/proton_cli.yaml" --output "${out}/unused"
          --dry-run -- /bin/true
  OUTPUT "mode: cli needs a Python script launch.*got '/bin/true'")

aorta_cli_refused(refuse.proton_cli_module
  COMMAND "${aorta}" sweep run --recipe "${recipes}/proton_cli.yaml" --output "${out}/unused"
          --dry-run -- python3 -m http.server
  OUTPUT "cannot wrap 'python -m http\\.server'" "only '-m' with \\['pytest'\\]")

# ... while python -m pytest is the one module Proton's CLI can run.
aorta_cli_test(dry_run.proton_cli_pytest RC 0
  COMMAND "${aorta}" sweep run --recipe "${recipes}/proton_cli.yaml" --output "${out}/unused"
          --dry-run -- python3 -m pytest test_x.py
  OUTPUT "would run: python3 -m triton\\.profiler\\.proton .* pytest test_x\\.py")

# --collect replaces the list and keeps the option blocks: plain.yaml has none, so proton's
# backend is auto and collides with rocprof; an explicit instrumentation backend does not.
aorta_cli_refused(refuse.collect_override_conflict
  COMMAND "${aorta}" sweep run --recipe "${recipes}/plain.yaml" --output "${out}/unused"
          --collect rocprof,proton --dry-run -- python3 x.py
  OUTPUT "--collectors rocprof,proton: rocprof and proton with backend: auto")

aorta_cli_test(dry_run.collect_override_instrumentation RC 0
  COMMAND "${aorta}" sweep run --recipe "${recipes}/proton_instrumentation.yaml"
          --output "${out}/unused" --collect rocprof,proton --dry-run -- python3 x.py
  OUTPUT "collectors \\[rocprof, proton\\]"
         "would run: .* -- python3 -m triton\\.profiler\\.proton .*-b instrumentation .*x\\.py")

# aorta validate: the same checks, without a command.
aorta_cli_test(validate.good RC 0
  COMMAND "${aorta}" validate "${PROJECT_SOURCE_DIR}/tests/fixtures/recipes/natural.json"
  OUTPUT "natural\\.json: valid \\(collectors \\[callgrind\\], 2 trial\\(s\\), 1 check\\(s\\)\\)")

aorta_cli_test(validate.collect_override RC 0
  COMMAND "${aorta}" validate "${recipes}/proton_instrumentation.yaml" --collect rocprof,proton
  OUTPUT "valid \\(collectors \\[rocprof, proton\\]")

foreach(case IN ITEMS unknown_key proton_backend rocprof_proton_auto ncu_proton_cupti
                      callgrind_proton check_expression)
  aorta_cli_test(validate.bad.${case} RC 64
    COMMAND "${aorta}" validate "${bad}/${case}.yaml"
    OUTPUT "aorta: error: [^\n]*${case}\\.yaml:[0-9]+:[0-9]+: "
    NOT_OUTPUT ": valid")
endforeach()

aorta_cli_test(validate.collect_override_conflict RC 64
  COMMAND "${aorta}" validate "${recipes}/plain.yaml" --collect rocprof,proton
  OUTPUT "--collectors rocprof,proton: rocprof and proton")
