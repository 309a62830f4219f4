// A CPU payload for callgrind: expensive() runs 100 times the iterations of cheap(), so its
// instruction count is about 100 times larger and `ir(expensive) / ir(cheap) >= 10` holds with
// room to spare at any optimisation level.
#include <cstdio>
#include <cstdlib>

// The empty asm keeps the compiler from folding a loop into a closed form.
[[gnu::noinline]] unsigned long long cheap(unsigned long long iterations) {
  unsigned long long state = 1;
  for (unsigned long long i = 0; i < iterations; ++i) {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    asm volatile("" : "+r"(state));
  }
  return state;
}

[[gnu::noinline]] unsigned long long expensive(unsigned long long iterations) {
  unsigned long long state = 1;
  for (unsigned long long i = 0; i < 100 * iterations; ++i) {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    asm volatile("" : "+r"(state));
  }
  return state;
}

int main(int argc, char** argv) {
  const unsigned long long iterations = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 1000;
  std::printf("cheap=%llu expensive=%llu\n", cheap(iterations), expensive(iterations));
  return 0;
}
