# The per-rank gate and the straggler verdict (issue 44) with a real Open MPI mpirun under
# callgrind: tests/ranks/rank_even_work gives every rank the same work but one, which does 10%
# more. Chain (CTest fixtures): a 4-rank run -> baseline record (every rank's series) -> unchanged
# passes / rank 2 at +10% fails under `ir +5%` naming rank 2 while the sum (+2.5%) stays inside.
# Skipped with ranks.cmake when mpirun or valgrind is missing (ranks.cmake returns first).
if(NOT AORTA_TEST_MPIRUN OR NOT AORTA_TEST_VALGRIND)
  return()
endif()
add_executable(aorta_rank_even_work ${PROJECT_SOURCE_DIR}/tests/ranks/rank_even_work.cpp)
target_link_libraries(aorta_rank_even_work PRIVATE aorta_warnings)
target_compile_options(aorta_rank_even_work PRIVATE $<$<CXX_COMPILER_ID:GNU,Clang>:-fno-sanitize=all>)
target_link_options(aorta_rank_even_work PRIVATE $<$<CXX_COMPILER_ID:GNU,Clang>:-fno-sanitize=all>)
set(even_work "$<TARGET_FILE:aorta_rank_even_work>")
set(rank_gate_out "${out}/rank_gate")
set(rank_gate_base "${out}/rank_gate-baselines")
set(even_recipe "${rank_recipes}/even_work.yaml")

aorta_cli_test(rank_gate.first_run RC 0 FIXTURES_SETUP aorta_rank_gate_first ENV ${mpi_env}
  CLEAN "${rank_gate_out}" "${rank_gate_base}"
  COMMAND "${aorta}" sweep run --recipe "${even_recipe}" --output "${rank_gate_out}/first/evenwork"
          -- "${AORTA_TEST_MPIRUN}" -n 4 "${even_work}" 100
  OUTPUT "4 of 4 expected rank\\(s\\) wrote a non-empty capture"
  JSON "${rank_gate_out}/first/evenwork/trial_0/result.json::ranks/2/rank=2"
       "${rank_gate_out}/first/evenwork/trial_0/result.json::ranks/2/metrics/callgrind_total_ir=*")

aorta_cli_test(rank_gate.record RC 0 FIXTURES_REQUIRED aorta_rank_gate_first
  FIXTURES_SETUP aorta_rank_gate_base
  COMMAND "${aorta}" baseline record "${rank_gate_out}/first/evenwork" --into "${rank_gate_base}"
  OUTPUT "baseline [^ ]*evenwork.json: 1 trial\\(s\\)"
  JSON "${rank_gate_base}/evenwork.json::ranks/0/metrics/callgrind_total_ir/n=1"
       "${rank_gate_base}/evenwork.json::ranks/3/metrics/callgrind_total_ir/n=1"
       "${rank_gate_base}/evenwork.json::ranks/2/places/0/host=*")

aorta_cli_test(rank_gate.unchanged_passes RC 0 FIXTURES_REQUIRED aorta_rank_gate_base
  ENV ${mpi_env} CLEAN "${rank_gate_out}/same"
  COMMAND "${aorta}" sweep run --recipe "${even_recipe}" --output "${rank_gate_out}/same/evenwork"
          --baseline "${rank_gate_base}" --gate "ir +5%"
          -- "${AORTA_TEST_MPIRUN}" -n 4 "${even_work}" 100
  OUTPUT "aorta: gate passed"
  JSON "${rank_gate_out}/same/evenwork/gate.json::verdict=pass")

# Rank 2 does 110 calls instead of 100: its own ir(slice) is +10%, the sum's +2.5%.
aorta_cli_test(rank_gate.one_rank_more_work_fails RC 1 FIXTURES_REQUIRED aorta_rank_gate_base
  ENV ${mpi_env} CLEAN "${rank_gate_out}/slow"
  COMMAND "${aorta}" sweep run --recipe "${even_recipe}" --output "${rank_gate_out}/slow/evenwork"
          --baseline "${rank_gate_base}" --gate "ir +5%"
          -- "${AORTA_TEST_MPIRUN}" -n 4 "${even_work}" 100 2 10
  OUTPUT "rank 2 \\([^)]+\\): ir\\([^\n]*slice[^\n]*<= baseline \\+ 5% +[0-9]+ +[0-9]+ +\\+10\\.00% [^\n]*MORE \\(fail\\)"
         # The sum moved by 2.5%, inside the tolerance: judged as today, and SAME.
         "\n[a-z]+ +ir\\(\\(anonymous namespace\\)::slice[^\n]*\\+2\\.50% [^\n]*SAME"
  NOT_OUTPUT "rank [013] \\([^)]+\\): ir\\([^\n]*slice[^\n]*\\(fail\\)"
  JSON "${rank_gate_out}/slow/evenwork/gate.json::verdict=fail")

# No baseline: one rank of 4 at +10% against the median of its peers, the check and the gate item.
aorta_cli_test(rank_gate.straggler_check_fails RC 1 ENV ${mpi_env} CLEAN "${rank_gate_out}/straggler"
  COMMAND "${aorta}" sweep run --recipe "${even_recipe}" --output "${rank_gate_out}/straggler"
          --check "straggler(ir(slice)) <= 1.05"
          -- "${AORTA_TEST_MPIRUN}" -n 4 "${even_work}" 100 2 10
  OUTPUT "check FAIL  straggler\\(ir\\(slice\\)\\) <= 1\\.05"
         "actual: +1\\.1 \\(rank 2 at [0-9]+ / median of its peers [0-9]+")
aorta_cli_test(rank_gate.straggler_check_passes RC 0 ENV ${mpi_env}
  CLEAN "${rank_gate_out}/straggler_even"
  COMMAND "${aorta}" sweep run --recipe "${even_recipe}" --output "${rank_gate_out}/straggler_even"
          --check "straggler(ir(slice)) <= 1.05"
          -- "${AORTA_TEST_MPIRUN}" -n 4 "${even_work}" 100
  OUTPUT "check PASS  straggler\\(ir\\(slice\\)\\) <= 1\\.05  \\(actual 1 \\(rank")
# One rank only: no peers, so the check cannot pass.
aorta_cli_test(rank_gate.straggler_one_rank_fails RC 1 ENV ${mpi_env}
  CLEAN "${rank_gate_out}/straggler_alone"
  COMMAND "${aorta}" sweep run --recipe "${even_recipe}" --output "${rank_gate_out}/straggler_alone"
          --check "straggler(ir(slice)) <= 1.05"
          -- "${AORTA_TEST_MPIRUN}" -n 1 "${even_work}" 100
  OUTPUT "only rank 0 measured; a one-rank trial has no peers")

# Work, not card: rank 1 has the extra work in both runs, and its card changes between them
# (CUDA_VISIBLE_DEVICES swapped; Open MPI's local rank picks the entry). The straggler item sees
# rank 1 slow on both cards.
aorta_cli_test(rank_gate.cards_first RC 0 FIXTURES_SETUP aorta_rank_gate_cards
  ENV ${mpi_env} "CUDA_VISIBLE_DEVICES=GPU-aaaaaaaa-0000-0000-0000-000000000000,GPU-bbbbbbbb-1111-1111-1111-111111111111"
  CLEAN "${rank_gate_out}/cards" "${rank_gate_out}/cards-baselines"
  COMMAND "${aorta}" sweep run --recipe "${even_recipe}" --output "${rank_gate_out}/cards/first/swap"
          -- "${AORTA_TEST_MPIRUN}" -n 2 "${even_work}" 100 1 10
  JSON "${rank_gate_out}/cards/first/swap/trial_0/result.json::ranks/0/card=GPU-aaaaaaaa-0000-0000-0000-000000000000"
       "${rank_gate_out}/cards/first/swap/trial_0/result.json::ranks/1/card=GPU-bbbbbbbb-1111-1111-1111-111111111111"
       "${rank_gate_out}/cards/first/swap/trial_0/result.json::ranks/1/card_source=OMPI_COMM_WORLD_LOCAL_RANK=1 indexes CUDA_VISIBLE_DEVICES")
aorta_cli_test(rank_gate.cards_record RC 0 FIXTURES_REQUIRED aorta_rank_gate_cards
  FIXTURES_SETUP aorta_rank_gate_cards_base
  COMMAND "${aorta}" baseline record "${rank_gate_out}/cards/first/swap" --into "${rank_gate_out}/cards-baselines")
aorta_cli_test(rank_gate.swapped_cards_is_work RC 1 FIXTURES_REQUIRED aorta_rank_gate_cards_base
  ENV ${mpi_env} "CUDA_VISIBLE_DEVICES=GPU-bbbbbbbb-1111-1111-1111-111111111111,GPU-aaaaaaaa-0000-0000-0000-000000000000"
  CLEAN "${rank_gate_out}/cards/swapped"
  COMMAND "${aorta}" sweep run --recipe "${even_recipe}" --output "${rank_gate_out}/cards/swapped/swap"
          --baseline "${rank_gate_out}/cards-baselines" --gate "straggler +5%"
          -- "${AORTA_TEST_MPIRUN}" -n 2 "${even_work}" 100 1 10
  OUTPUT "rank 1 \\([^)]*GPU-aaaaaaaa\\): straggler\\(ir\\([^\n]*slice[^\n]*\\+10\\.00% [^\n]*work: rank 1 is slow on every card it ran on \\(GPU-aaaaaaaa-0000-0000-0000-000000000000, GPU-bbbbbbbb-1111-1111-1111-111111111111\\)"
  NOT_OUTPUT "card: GPU-")

# Card, not work: the extra work follows the card GPU-bbbbbbbb (rank 1 on it in the first run,
# rank 0 in the second), so every rank that ran on that card was slow there.
aorta_cli_test(rank_gate.slow_card_is_card RC 1 FIXTURES_REQUIRED aorta_rank_gate_cards_base
  ENV ${mpi_env} "CUDA_VISIBLE_DEVICES=GPU-bbbbbbbb-1111-1111-1111-111111111111,GPU-aaaaaaaa-0000-0000-0000-000000000000"
  CLEAN "${rank_gate_out}/cards/card"
  COMMAND "${aorta}" sweep run --recipe "${even_recipe}" --output "${rank_gate_out}/cards/card/swap"
          --baseline "${rank_gate_out}/cards-baselines" --gate "straggler +5%"
          -- "${AORTA_TEST_MPIRUN}" -n 2 "${even_work}" 100 0 10
  OUTPUT "rank 0 \\([^)]*GPU-bbbbbbbb\\): straggler[^\n]*card: GPU-bbbbbbbb-1111-1111-1111-111111111111 is slow for every rank that ran on it \\(ranks 0, 1\\)"
  NOT_OUTPUT "work: rank")

# Ranks sharing a card (one CUDA_VISIBLE_DEVICES entry, so every rank reports that card): a timed
# straggler is refused, naming the ranks and the card, unless the recipe says the ranks take the
# card in turn (ranks_serialized: true); ranks on cards of their own are judged without it. The
# payload is a Google Benchmark program, so the quantity is a time (Ir would be judged anyway).
find_package(benchmark CONFIG QUIET)
if(benchmark_FOUND)
  set(shared_card "GPU-cccccccc-2222-2222-2222-222222222222")
  set(sleep_bench "$<TARGET_FILE:aorta_cli_ab_sleep_bench>")
  file(WRITE "${out}/rank_gate_shared.yaml" "schema_version: 1\ncollect: [gbench]\n")
  file(WRITE "${out}/rank_gate_serialized.yaml"
       "schema_version: 1\ncollect: [gbench]\nranks_serialized: true\n")
  aorta_cli_test(rank_gate.shared_card_refused RC 1 ENV ${mpi_env} "CUDA_VISIBLE_DEVICES=${shared_card}"
    CLEAN "${rank_gate_out}/shared"
    COMMAND "${aorta}" sweep run --recipe "${out}/rank_gate_shared.yaml"
            --output "${rank_gate_out}/shared" --check "straggler(time_ms(BM_wait)) <= 3"
            -- "${AORTA_TEST_MPIRUN}" -n 2 "${sleep_bench}"
    OUTPUT "check FAIL  straggler\\(time_ms\\(BM_wait\\)\\) <= 3"
           "ranks 0, 1 shared ${shared_card} in this trial, running at once: ranks sharing a card time-slice it"
           "say so with the recipe key 'ranks_serialized: true'"
    JSON "${rank_gate_out}/shared/trial_0/result.json::ranks/1/card=${shared_card}")
  aorta_cli_test(rank_gate.shared_card_serialized_judged RC 0 ENV ${mpi_env}
    "CUDA_VISIBLE_DEVICES=${shared_card}" CLEAN "${rank_gate_out}/serialized"
    COMMAND "${aorta}" sweep run --recipe "${out}/rank_gate_serialized.yaml"
            --output "${rank_gate_out}/serialized" --check "straggler(time_ms(BM_wait)) <= 3"
            -- "${AORTA_TEST_MPIRUN}" -n 2 "${sleep_bench}"
    OUTPUT "check PASS  straggler\\(time_ms\\(BM_wait\\)\\) <= 3  \\(actual [0-9.]+ \\(rank"
    JSON "${rank_gate_out}/serialized/trial_0/result.json::ranks_serialized=ON")
  aorta_cli_test(rank_gate.own_cards_judged RC 0 ENV ${mpi_env}
    "CUDA_VISIBLE_DEVICES=GPU-aaaaaaaa-0000-0000-0000-000000000000,${shared_card}"
    CLEAN "${rank_gate_out}/own_cards"
    COMMAND "${aorta}" sweep run --recipe "${out}/rank_gate_shared.yaml"
            --output "${rank_gate_out}/own_cards" --check "straggler(time_ms(BM_wait)) <= 3"
            -- "${AORTA_TEST_MPIRUN}" -n 2 "${sleep_bench}"
    OUTPUT "check PASS  straggler\\(time_ms\\(BM_wait\\)\\) <= 3"
    NOT_OUTPUT "shared GPU-")
endif()
