# Multi-rank payloads (label `cli`): a real Open MPI mpirun starts tests/ranks/rank_work on two
# ranks under callgrind; rank r does (r + 1) times the work, so per-rank checks have known answers.
add_executable(aorta_rank_work ${PROJECT_SOURCE_DIR}/tests/ranks/rank_work.cpp)
target_link_libraries(aorta_rank_work PRIVATE aorta_warnings)
target_compile_options(aorta_rank_work PRIVATE $<$<CXX_COMPILER_ID:GNU,Clang>:-fno-sanitize=all>)
target_link_options(aorta_rank_work PRIVATE $<$<CXX_COMPILER_ID:GNU,Clang>:-fno-sanitize=all>)
set(rank_work "$<TARGET_FILE:aorta_rank_work>")
set(rank_recipes "${recipes}/ranks")

# rank-exec by itself: no rank variable, and two processes claiming one rank number.
aorta_cli_test(ranks.exec_unidentified RC 64 CLEAN "${out}/ranks_unidentified"
  COMMAND env -u RANK -u OMPI_COMM_WORLD_RANK -u PMI_RANK -u SLURM_PROCID
          "${aorta}" rank-exec --trial-dir "${out}/ranks_unidentified" -- true
  OUTPUT "cannot identify this process's rank: none of RANK, OMPI_COMM_WORLD_RANK, PMI_RANK, SLURM_PROCID is set"
  FILES "${out}/ranks_unidentified/rank_errors")
aorta_cli_test(ranks.exec_duplicate RC 64 CLEAN "${out}/ranks_duplicate"
  COMMAND sh -c "mkdir -p '${out}/ranks_duplicate' && RANK=3 '${aorta}' rank-exec --trial-dir '${out}/ranks_duplicate' -- true && RANK=3 '${aorta}' rank-exec --trial-dir '${out}/ranks_duplicate' -- true"
  OUTPUT "two processes claim rank 3: this one \\(pid [0-9]+ on [^,]+, RANK=3\\) and pid [0-9]+ on .* \\(RANK=3\\)"
  FILES "${out}/ranks_duplicate/rank_3/rank.json")

# ranks: with a command aorta cannot split into ranks.
aorta_cli_test(ranks.unknown_launcher RC 64
  COMMAND "${aorta}" sweep run --recipe "${rank_recipes}/two_ranks.yaml" --output "${out}/ranks_unknown"
          --dry-run -- sh -c "true"
  OUTPUT "ranks: 2 asks for a multi-rank payload, but aorta cannot identify the ranks of 'sh -c true'")

# The dry run shows each rank's directory and the tools' own macros.
aorta_cli_test(ranks.dry_run_layout RC 0
  COMMAND "${aorta}" sweep run --recipe "${rank_recipes}/callgrind.yaml" --output "${out}/ranks_dry"
          --dry-run -- torchrun --nproc-per-node 2 train.py --steps 3
  OUTPUT "would run: torchrun --nproc-per-node 2 --no-python [^ ]*aorta rank-exec --trial-dir [^ ]*ranks_dry/trial_0 --collectors callgrind --rank-from RANK -- [^ ]*valgrind [^\n]*--callgrind-out-file=[^ ]*/trial_0/rank_%q\\{AORTA_RANK\\}/callgrind/callgrind\\.out\\.%p[^\n]* python3 train\\.py --steps 3"
         "multi-rank payload: launcher torchrun, 2 rank\\(s\\), rank from RANK"
         "rank 0 -> [^\n]*ranks_dry/trial_0/rank_0/\\{callgrind\\}"
         "rank 1 -> [^\n]*ranks_dry/trial_0/rank_1/\\{callgrind\\}")

find_program(AORTA_TEST_MPIRUN mpirun)
if(NOT AORTA_TEST_MPIRUN OR NOT AORTA_TEST_VALGRIND)
  add_test(NAME aorta.cli.ranks.mpirun
    COMMAND sh -c "echo 'Skipped: mpirun (openmpi-bin) or valgrind is not installed; ci/install-deps.sh installs both'; exit 77")
  set_tests_properties(aorta.cli.ranks.mpirun PROPERTIES LABELS cli SKIP_RETURN_CODE 77)
  return()
endif()
# Open MPI refuses root unless told; CI containers run as root.
set(mpi_env OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_plm=isolated
            OMPI_MCA_btl=self OMPI_MCA_rmaps_base_oversubscribe=1)

aorta_cli_test(ranks.mpirun_callgrind RC 0 CLEAN "${out}/ranks_mpi" ENV ${mpi_env}
  COMMAND "${aorta}" sweep run --recipe "${rank_recipes}/callgrind.yaml" --output "${out}/ranks_mpi"
          -- "${AORTA_TEST_MPIRUN}" -n 2 "${rank_work}" 20
  OUTPUT "2 of 2 expected rank\\(s\\) wrote a non-empty capture"
         "check PASS  imbalance\\(ir\\(work\\\\\\(\\)\\) >= 1\\.9  \\(actual 2[.0-9]* \\(max [0-9]+ on rank 1 / min [0-9]+ on rank 0"
         "check PASS  ranks == 2"
  FILES "${out}/ranks_mpi/trial_0/rank_0/callgrind" "${out}/ranks_mpi/trial_0/rank_1/callgrind"
        "${out}/ranks_mpi/trial_0/rank_1/rank.json"
  NO_FILES "${out}/ranks_mpi/trial_0/callgrind"
  JSON "${out}/ranks_mpi/trial_0/result.json::verdict=pass"
       "${out}/ranks_mpi/trial_0/result.json::ranks/1/rank=1"
       "${out}/ranks_mpi/trial_0/result.json::metrics/ranks=2")

# One rank given twice its share: the imbalance check fails, naming both ranks' values.
aorta_cli_test(ranks.mpirun_imbalance_fails RC 1 CLEAN "${out}/ranks_heavy" ENV ${mpi_env}
  COMMAND "${aorta}" sweep run --recipe "${rank_recipes}/callgrind.yaml" --output "${out}/ranks_heavy"
          -- "${AORTA_TEST_MPIRUN}" -n 2 "${rank_work}" 20 1
  OUTPUT "check FAIL  imbalance\\(ir\\(work\\\\\\(\\)\\) <= 2\\.1"
         "actual: +[34][.0-9]* \\(max [0-9]+ on rank 1 / min [0-9]+ on rank 0")

# The recipe expects three ranks and the launcher starts two: the missing rank is named.
aorta_cli_test(ranks.missing_rank RC 1 CLEAN "${out}/ranks_missing" ENV ${mpi_env}
  COMMAND "${aorta}" sweep run --recipe "${rank_recipes}/three_ranks.yaml" --output "${out}/ranks_missing"
          -- "${AORTA_TEST_MPIRUN}" --map-by ppr:2:node "${rank_work}" 5
  OUTPUT "trial 0 FAILED: rank 2 wrote nothing: no rank_2 \\(expected ranks 0\\.\\.2"
  JSON "${out}/ranks_missing/trial_0/result.json::metrics/ranks=2")

# A rank that does no work leaves an empty capture: the trial fails naming that rank.
aorta_cli_test(ranks.empty_rank RC 1 CLEAN "${out}/ranks_empty" ENV ${mpi_env}
  COMMAND "${aorta}" sweep run --recipe "${rank_recipes}/toggle_work.yaml" --output "${out}/ranks_empty"
          -- "${AORTA_TEST_MPIRUN}" -n 2 "${rank_work}" 5 -1 1
  OUTPUT "trial 0 FAILED: rank 1 on [^ ]+ wrote an empty capture: callgrind recorded no function cost")
