# Produces the documents the golden schema tests check (tests/golden/CMakeLists.txt): real aorta
# runs on this machine (callgrind on payloads built by the tests, Open MPI where installed) and
# aorta's readers over the real H200 results under tests/fixtures/. Writes <OUT>/lists/<format>.list,
# one document path per line. cmake -DAORTA=... -DHOTSPOT=... -DGATE_HOTSPOT=... -DRANK_WORK=...
#   -DMPIRUN=<empty where absent> -DSOURCE_DIR=... -DOUT=... -P produce.cmake
foreach(var IN ITEMS AORTA HOTSPOT GATE_HOTSPOT RANK_WORK SOURCE_DIR OUT)
  if(NOT DEFINED ${var} OR "${${var}}" STREQUAL "")
    message(FATAL_ERROR "produce.cmake: -D${var}=... is required")
  endif()
endforeach()
set(recipes "${SOURCE_DIR}/tests/cli/recipes")
set(h200_results "${SOURCE_DIR}/tests/fixtures/h200-examples/aorta-results")
set(h200 "${SOURCE_DIR}/tests/fixtures/h200")
set(gate_recipe "${SOURCE_DIR}/examples/profiling/callgrind/cpu-hotspot/recipe.yaml")
file(REMOVE_RECURSE "${OUT}")
file(MAKE_DIRECTORY "${OUT}/lists")

# aorta_run(<expected exit code> [STDOUT <file>] [ENV <NAME=VALUE>...] COMMAND <argv>...)
function(aorta_run expected)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "STDOUT" "ENV;COMMAND")
  set(capture OUTPUT_VARIABLE stdout)
  if(arg_STDOUT)
    set(capture OUTPUT_FILE "${arg_STDOUT}")
  endif()
  execute_process(COMMAND ${CMAKE_COMMAND} -E env ${arg_ENV} -- ${arg_COMMAND}
    ${capture} ERROR_VARIABLE stderr RESULT_VARIABLE rc WORKING_DIRECTORY "${OUT}")
  if(NOT "${rc}" STREQUAL "${expected}")
    string(JOIN " " shown ${arg_COMMAND})
    message(FATAL_ERROR "produce.cmake: `${shown}` exited ${rc}, expected ${expected}\n"
                        "stdout:\n${stdout}\nstderr:\n${stderr}")
  endif()
endfunction()

function(aorta_list format)
  foreach(document IN LISTS ARGN)
    if(NOT EXISTS "${document}")
      message(FATAL_ERROR "produce.cmake: ${document} (for ${format}) was not written")
    endif()
    file(APPEND "${OUT}/lists/${format}.list" "${document}\n")
  endforeach()
endfunction()

# --- sweep run: result.json and command.json --------------------------------------------------
set(runs "${OUT}/runs")
aorta_run(0 COMMAND "${AORTA}" sweep run --recipe "${recipes}/callgrind_ratio.yaml"
          --output "${runs}/hotspot" -- "${HOTSPOT}")
aorta_run(1 COMMAND "${AORTA}" sweep run --recipe "${recipes}/callgrind_ratio.yaml"
          --output "${runs}/hotspot_fail" --check "ir(expensive) / ir(cheap) >= 25" -- "${HOTSPOT}")
# A payload killed by a signal: exit_status null, signal set.
file(WRITE "${OUT}/callgrind.yaml" "schema_version: 1\ncollect: [callgrind]\n")
aorta_run(1 COMMAND "${AORTA}" sweep run --recipe "${OUT}/callgrind.yaml"
          --output "${runs}/killed" -- sh -c "kill -KILL $$")
aorta_list(result_json "${runs}/hotspot/trial_0/result.json" "${runs}/hotspot/trial_1/result.json"
           "${runs}/hotspot_fail/trial_0/result.json" "${runs}/killed/trial_0/result.json")
aorta_list(command_json "${runs}/hotspot/trial_0/command.json"
           "${runs}/hotspot_fail/trial_0/command.json" "${runs}/killed/trial_0/command.json")

# A run with cells: each trial's result.json names its cell; the run's matrix.json has the
# cells, the confound table and a cell-addressed check.
file(WRITE "${OUT}/cells.yaml" "schema_version: 1\ncollect: [callgrind]\ntrials: 2\n"
  "mitigations: {a: {env: {CELLS_X: '1'}}, b: {env: {CELLS_X: '2'}}}\nmitigation_axis: [a, b]\n")
aorta_run(0 COMMAND "${AORTA}" sweep run --recipe "${OUT}/cells.yaml" --output "${runs}/cells"
          --seed 1 --check "ir(^main$)@b / ir(^main$)@a > 0" -- "${HOTSPOT}")
aorta_list(result_json "${runs}/cells/b/trial_1/result.json")
aorta_list(cells_matrix_json "${runs}/cells/matrix.json")

# Two ranks under Open MPI: result.json's `ranks` and each rank's rank.json.
if(MPIRUN)
  aorta_run(0 ENV OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_plm=isolated
                  OMPI_MCA_btl=self OMPI_MCA_rmaps_base_oversubscribe=1
            COMMAND "${AORTA}" sweep run --recipe "${recipes}/ranks/callgrind.yaml"
                    --output "${runs}/ranks" -- "${MPIRUN}" -n 2 "${RANK_WORK}" 20)
  aorta_list(result_json "${runs}/ranks/trial_0/result.json")
  aorta_list(command_json "${runs}/ranks/trial_0/command.json")
  aorta_list(rank_json "${runs}/ranks/trial_0/rank_0/rank.json"
             "${runs}/ranks/trial_0/rank_1/rank.json")
  # A baseline of the two ranks: its per-rank series (`ranks`).
  aorta_run(0 COMMAND "${AORTA}" baseline record "${runs}/ranks" --into "${OUT}/rank-baselines")
  aorta_list(baseline "${OUT}/rank-baselines/ranks.json")
else()
  message(STATUS "produce.cmake: no mpirun: result.json's ranks and rank.json's world_size are "
                 "not exercised")
endif()
# rank-exec by itself, with only RANK set (no world size); the trial directory exists, as in a run.
file(MAKE_DIRECTORY "${OUT}/rank-exec")
aorta_run(0 ENV RANK=0 COMMAND "${AORTA}" rank-exec --trial-dir "${OUT}/rank-exec" -- true)
aorta_list(rank_json "${OUT}/rank-exec/rank_0/rank.json")

# --- aorta check --json: a callgrind capture of ours and real H200 captures ---------------------
aorta_run(1 STDOUT "${OUT}/check-callgrind.json"
          COMMAND "${AORTA}" check --collector callgrind "${runs}/hotspot/trial_0/callgrind"
                  --check "ir(expensive) / ir(cheap) >= 15" --check "ir(cheap) > 1e12" --json)
aorta_run(1 STDOUT "${OUT}/check-proton.json"
          COMMAND "${AORTA}" check --collector proton "${h200}/vecadd_cupti/proton.hatchet"
                  --check "count(add_kernel) == 20" --check "count(add_kernel) == 3" --json)
aorta_run(0 STDOUT "${OUT}/check-ncu.json"
          COMMAND "${AORTA}" check --collector ncu "${h200}/ncu_vecadd/ncu.csv" --json)
# The benchmark collectors, on real outputs: Google Benchmark 1.7.1 (Debian) and nvbench on the H200.
aorta_run(0 STDOUT "${OUT}/check-gbench.json"
          COMMAND "${AORTA}" check --collector gbench
                  "${SOURCE_DIR}/tests/fixtures/gbench/repetitions.json"
                  --check "count(^BM_Sort/1024$) == 3" --json)
aorta_run(0 STDOUT "${OUT}/check-nvbench.json"
          COMMAND "${AORTA}" check --collector nvbench
                  "${SOURCE_DIR}/tests/fixtures/nvbench/h200-gemm.json"
                  --check "time_ms(^gemm/N:2048$) > 0" --json)
aorta_list(check_json "${OUT}/check-callgrind.json" "${OUT}/check-proton.json"
           "${OUT}/check-ncu.json" "${OUT}/check-gbench.json" "${OUT}/check-nvbench.json")

# --- baseline record, the gate (gate.json), compare --json ------------------------------------
set(gate "${OUT}/gate")
aorta_run(0 COMMAND "${AORTA}" sweep run --recipe "${gate_recipe}" --output "${gate}/first/hotspot"
          -- "${GATE_HOTSPOT}" 8192 32)
aorta_run(0 COMMAND "${AORTA}" baseline record "${gate}/first/hotspot" --into "${gate}/baselines")
# The lane's results have one trial each: recorded anyway (--min-trials 1), their timed rows
# UNKNOWN in compare.
aorta_run(0 COMMAND "${AORTA}" baseline record "${h200_results}" --into "${OUT}/h200-baselines"
          --skip-missing --min-trials 1)
file(GLOB h200_baselines "${OUT}/h200-baselines/*.json")
aorta_list(baseline "${gate}/baselines/hotspot.json" ${h200_baselines})
aorta_run(0 COMMAND "${AORTA}" sweep run --recipe "${gate_recipe}" --output "${gate}/same/hotspot"
          --baseline "${gate}/baselines" -- "${GATE_HOTSPOT}" 8192 32)
aorta_run(1 COMMAND "${AORTA}" sweep run --recipe "${gate_recipe}" --output "${gate}/slow/hotspot"
          --baseline "${gate}/baselines" -- "${GATE_HOTSPOT}" 9011 32)
# A history baseline (docs/history.md): the first run kept in a store, then a run gated against
# it and compare against it, both writing their optional `history` key.
aorta_run(0 COMMAND "${AORTA}" history add "${gate}/first/hotspot" --commit c1 --branch main
          --time 2026-12-01T00:00:00Z --history "${gate}/history.sqlite")
aorta_run(0 COMMAND "${AORTA}" sweep run --recipe "${gate_recipe}" --output "${gate}/history/hotspot"
          --baseline history:main --history "${gate}/history.sqlite" -- "${GATE_HOTSPOT}" 8192 32)
aorta_run(1 COMMAND "${AORTA}" sweep run --recipe "${gate_recipe}" --output
          "${gate}/history-slow/hotspot" --baseline history:main --history "${gate}/history.sqlite"
          -- "${GATE_HOTSPOT}" 9011 32)
aorta_list(gate_json "${gate}/same/hotspot/gate.json" "${gate}/slow/hotspot/gate.json"
           "${gate}/history/hotspot/gate.json" "${gate}/history-slow/hotspot/gate.json")
# The gate's rows are in gate.json's test_verdict; the last trial's result.json, written once by
# the trial, keeps the trial's own checks and verdict.
aorta_list(result_json "${gate}/slow/hotspot/trial_0/result.json")
aorta_run(1 STDOUT "${OUT}/compare-callgrind.json"
          COMMAND "${AORTA}" compare --json "${gate}/baselines" "${gate}/slow")
aorta_run(0 STDOUT "${OUT}/compare-h200.json"
          COMMAND "${AORTA}" compare --json "${OUT}/h200-baselines" "${h200_results}")
aorta_run(1 STDOUT "${OUT}/compare-history.json"
          COMMAND "${AORTA}" compare --json history:main "${gate}/slow" --history
                  "${gate}/history.sqlite")
aorta_list(compare_json "${OUT}/compare-callgrind.json" "${OUT}/compare-h200.json"
           "${OUT}/compare-history.json")

# --- aorta report: report.json ----------------------------------------------------------------
# Everything above plus the H200 lane's results (GPU kernels) and one unreadable result.json.
set(all "${OUT}/report-all")
file(COPY "${runs}/" DESTINATION "${all}/runs")
file(COPY "${h200_results}/" DESTINATION "${all}/h200")
file(WRITE "${all}/broken/trial_0/result.json" "{ not json")
aorta_run(0 COMMAND "${AORTA}" report "${all}")
# A run marker: the H200 results (older) are left out as stale.
set(stale "${OUT}/report-stale")
aorta_run(0 COMMAND "${AORTA}" report --begin-run "${stale}")
file(COPY "${h200_results}/" DESTINATION "${stale}/h200")
aorta_run(0 COMMAND "${AORTA}" sweep run --recipe "${recipes}/callgrind_ratio.yaml"
          --output "${stale}/hotspot" -- "${HOTSPOT}")
aorta_run(0 COMMAND "${AORTA}" report "${stale}")
aorta_list(report_json "${all}/report.json" "${stale}/report.json")
