// Deterministic work for the callgrind reader test: expensive() runs the very loop of cheap()
// 50 times as often, so its instruction count is 50x cheap's plus a few instructions of call
// overhead.
#include <cstdio>

namespace {
constexpr unsigned base_iterations = 20000;
constexpr unsigned expensive_factor = 50;
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

int main() {
  const unsigned a = cheap();
  const unsigned b = expensive();
  std::printf("%u\n", a + b);
  return 0;
}
