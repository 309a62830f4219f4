// The payload of the cells example: `work` runs ELEMENTS x STEPS xorshift rounds, where STEPS
// comes from the environment variable CELLS_STEPS (default 32). The recipe's two mitigations set
// it differently, so callgrind counts a different number of instructions in `work` per cell, and
// the confound verdict must call the heavier cell SLOWER.
//
//   CELLS_STEPS=36 cells_work [ELEMENTS]      ELEMENTS defaults to 16384
//
// Exit codes: 0 PASS, 1 wrong result, 64 usage error.
#include <cstdint>
#include <cstdio>
#include <cstdlib>

#if defined(__GNUC__) && !defined(__clang__)
#define CELLS_OPAQUE __attribute__((noipa))
#else
#define CELLS_OPAQUE __attribute__((noinline))
#endif

namespace {

constexpr std::uint64_t max_value = 1u << 24;

std::uint64_t step(std::uint64_t x) {
  x ^= x << 13;
  x ^= x >> 7;
  x ^= x << 17;
  return x;
}

bool parse(const char* text, std::uint64_t& out) {
  if (text == nullptr || *text == '\0' || *text == '-') return false;
  char* end = nullptr;
  const unsigned long long value = std::strtoull(text, &end, 10);
  if (*end != '\0' || value == 0 || value > max_value) return false;
  out = value;
  return true;
}

}  // namespace

CELLS_OPAQUE std::uint64_t work(std::uint64_t state, std::uint64_t elements, std::uint64_t steps) {
  for (std::uint64_t i = 0; i < elements * steps; ++i) state = step(state);
  return state;
}

int main(int argc, char** argv) {
  std::uint64_t elements = 16384;
  std::uint64_t steps = 32;
  const char* from_env = std::getenv("CELLS_STEPS");
  if (argc > 2 || (argc == 2 && !parse(argv[1], elements)) ||
      (from_env != nullptr && !parse(from_env, steps))) {
    std::fprintf(stderr, "usage: CELLS_STEPS=N cells_work [ELEMENTS] (each 1..%llu)\n",
                 static_cast<unsigned long long>(max_value));
    return 64;
  }
  const std::uint64_t seed = 0x9E3779B97F4A7C15ull;
  // `work` is checked on three rounds written out, not by running its loop again: the check then
  // costs the same in every cell, and the cells differ in `work` alone (all of the change is its).
  if (work(seed, 1, 3) != step(step(step(seed)))) {
    std::fprintf(stderr, "cells_work: FAIL: work() disagrees with three rounds written out\n");
    return 1;
  }
  const std::uint64_t got = work(seed, elements, steps);
  std::printf("cells_work: %llu x %llu rounds -> %016llx\n",
              static_cast<unsigned long long>(elements), static_cast<unsigned long long>(steps),
              static_cast<unsigned long long>(got));
  return 0;
}
