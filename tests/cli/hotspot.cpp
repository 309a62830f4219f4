// The callgrind payload of the CLI tests: expensive() runs the loop of cheap() 20 times as often,
// so Ir(expensive) / Ir(cheap) is 20 plus a few instructions of call overhead. never_called() runs
// only when asked (`hotspot --never`), so toggling collection on it gives an empty capture.
#include <cstdio>
#include <cstring>

namespace {
constexpr unsigned base_iterations = 10000;
constexpr unsigned expensive_factor = 20;
}  // namespace

__attribute__((noinline)) unsigned cheap() {
  volatile unsigned sum = 0;
  for (unsigned i = 0; i < base_iterations; ++i) sum = sum + i;
  return sum;
}

__attribute__((noinline)) unsigned expensive() {
  volatile unsigned sum = 0;
  for (unsigned i = 0; i < expensive_factor * base_iterations; ++i) sum = sum + i;
  return sum;
}

__attribute__((noinline)) unsigned never_called() {
  volatile unsigned sum = 1;
  return sum;
}

int main(int argc, char** argv) {
  unsigned total = cheap() + expensive();
  if (argc > 1 && std::strcmp(argv[1], "--never") == 0) total += never_called();
  std::printf("%u\n", total);
  return 0;
}
