# `--dry-run` on every recipe the project ships: each validates, prints its wrap, and launches and
# writes nothing. python3 x.py suits every collector (Proton's mode: cli wraps only Python).
file(GLOB fixture_recipes CONFIGURE_DEPENDS "${PROJECT_SOURCE_DIR}/tests/fixtures/recipes/*")
file(GLOB_RECURSE example_recipes CONFIGURE_DEPENDS
  "${PROJECT_SOURCE_DIR}/examples/profiling/recipe*.yaml")
list(SORT example_recipes)
if(NOT fixture_recipes OR NOT example_recipes)
  message(FATAL_ERROR "tests/cli: no recipes found to dry-run")
endif()
foreach(recipe IN LISTS fixture_recipes example_recipes)
  file(RELATIVE_PATH label "${PROJECT_SOURCE_DIR}" "${recipe}")
  string(REGEX REPLACE "[^A-Za-z0-9_.-]" "_" label "${label}")
  aorta_cli_test(dry_run.${label} RC 0
    CLEAN "${out}/dry_run/${label}"
    COMMAND "${aorta}" sweep run --recipe "${recipe}" --output "${out}/dry_run/${label}" --dry-run
            -- python3 x.py
    OUTPUT "trial 0: would run: .*x\\.py" "dry run: recipe valid, nothing launched"
    NOT_OUTPUT "trial 0: running"
    NO_FILES "${out}/dry_run/${label}")
endforeach()

# Without rocprofv3 the dry run still shows the whole wrap, with a placeholder for the profiler.
# PATH is pinned so that a rocprofv3 elsewhere cannot change what this test sees.
find_program(system_rocprofv3 rocprofv3 PATHS /usr/bin /bin NO_DEFAULT_PATH NO_CACHE)
if(NOT system_rocprofv3)
  aorta_cli_test(dry_run.rocprof_not_installed RC 0
    ENV --unset=ROCPROF_BIN PATH=/usr/bin:/bin
    CLEAN "${out}/dry_run/rocprof_not_installed"
    COMMAND "${aorta}" sweep run --recipe "${PROJECT_SOURCE_DIR}/tests/fixtures/recipes/torch-matmul.yaml"
            --output "${out}/dry_run/rocprof_not_installed" --dry-run -- python3 x.py
    OUTPUT "would run: '<rocprofv3: not installed>' -d [^ ]*/trial_0/rocprof .*--kernel-include-regex 'Cijk\\|gemm\\|matmul' -- python3 x\\.py"
    NO_FILES "${out}/dry_run/rocprof_not_installed")
endif()

# A check of an ncu counter the recipe does not collect is refused before any trial (exit 64),
# by the ncu collector (collector_base::require_for_checks), with or without ncu in the recipe.
aorta_cli_test(dry_run.ncu_counter_not_collected RC 64
  CLEAN "${out}/dry_run/ncu_counter_not_collected"
  COMMAND "${aorta}" sweep run --recipe "${PROJECT_SOURCE_DIR}/examples/profiling/ncu/cuda-gemm/recipe.yaml"
          --output "${out}/dry_run/ncu_counter_not_collected" --dry-run
          --check "ncu(dram__bytes.sum, sgemm_tiled) <= 1e9" -- python3 x.py
  OUTPUT "check 'ncu\\(dram__bytes\\.sum, sgemm_tiled\\) <= 1e9' reads the ncu counter dram__bytes\\.sum, which the recipe does not collect \\(collect\\.ncu\\.metrics: gpu__time_duration\\.sum\\)"
  NO_FILES "${out}/dry_run/ncu_counter_not_collected")
aorta_cli_test(dry_run.ncu_counter_without_ncu RC 64
  CLEAN "${out}/dry_run/ncu_counter_without_ncu"
  COMMAND "${aorta}" sweep run --recipe "${PROJECT_SOURCE_DIR}/tests/cli/recipes/callgrind_plain.yaml"
          --output "${out}/dry_run/ncu_counter_without_ncu" --dry-run
          --check "ncu_counter.dram__bytes.sum/k < 1" -- python3 x.py
  OUTPUT "reads the ncu counter dram__bytes\\.sum, which the recipe does not collect \\(there is no ncu collector\\)")
