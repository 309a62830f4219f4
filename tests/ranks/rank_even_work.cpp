// A multi-rank CPU payload for the per-rank gate and straggler tests: every rank calls slice()
// CALLS times, except the rank named HEAVY, which does EXTRA percent more. Its rank comes from its
// launcher's variable, as a real program's would.
//
//   rank_even_work CALLS [HEAVY [EXTRA]]     HEAVY -1: no rank is heavy; EXTRA defaults to 10
#include <cstdio>
#include <cstdlib>
#include <initializer_list>

namespace {

volatile unsigned long sink = 0;

__attribute__((noinline)) void slice(unsigned long n) {
  for (unsigned long i = 0; i < n; ++i) sink = sink + i * i;
}

int own_rank() {
  for (const char* name : {"OMPI_COMM_WORLD_RANK", "PMI_RANK", "SLURM_PROCID", "RANK"}) {
    if (const char* value = std::getenv(name)) return std::atoi(value);
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  const long calls = argc > 1 ? std::atol(argv[1]) : 100;
  const int heavy = argc > 2 ? std::atoi(argv[2]) : -1;
  const long extra = argc > 3 ? std::atol(argv[3]) : 10;
  const int rank = own_rank();
  const long mine = rank == heavy ? calls * (100 + extra) / 100 : calls;
  for (long i = 0; i < mine; ++i) slice(1000);
  std::printf("rank %d: %ld calls of slice()\n", rank, mine);
  return 0;
}
