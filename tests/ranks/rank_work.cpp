// A multi-rank CPU payload for the rank tests: rank r calls work() (r + 1) * N times, so rank 1 does
// twice the work of rank 0. Its rank comes from its launcher's variable, as a real program's would.
#include <cstdio>
#include <cstdlib>
#include <string>

namespace {

volatile unsigned long sink = 0;

__attribute__((noinline)) void work(unsigned long n) {
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
  const int calls = argc > 1 ? std::atoi(argv[1]) : 10;
  // A rank named second does double (the imbalance tests): `rank_work 10 1` doubles rank 1 again.
  const int heavy = argc > 2 ? std::atoi(argv[2]) : -1;
  // ... and a rank named third does none (the empty-rank test).
  const int idle = argc > 3 ? std::atoi(argv[3]) : -1;
  const int rank = own_rank();
  const int mine = rank == idle ? 0 : (rank + 1) * calls * (rank == heavy ? 2 : 1);
  for (int i = 0; i < mine; ++i) work(1000);
  std::printf("rank %d: %d calls of work()\n", rank, mine);
  return 0;
}
