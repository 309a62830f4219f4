// The A/B payload of the attribution tests (issue 43): expensive() runs 200,000 x (100 +
// AB_EXTRA_PERCENT) / 100 rounds and cheap() a fixed 20,000, so a cell with AB_EXTRA_PERCENT=10
// does 10% more work in expensive() and nowhere else (no reference loop repeats the work, as the
// examples' checks do), which is what the confound summary must name with its share.
//
//   AB_EXTRA_PERCENT=10 ab_work        AB_EXTRA_PERCENT: 0..1000, default 0
//
// Exit codes: 0 PASS, 64 usage error.
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace {
constexpr unsigned long base_rounds = 200000;
constexpr unsigned long cheap_rounds = 20000;
}  // namespace

__attribute__((noinline)) unsigned long cheap(unsigned long rounds) {
  volatile unsigned long sum = 0;
  for (unsigned long i = 0; i < rounds; ++i) sum = sum + i;
  return sum;
}

__attribute__((noinline)) unsigned long expensive(unsigned long rounds) {
  volatile unsigned long sum = 0;
  for (unsigned long i = 0; i < rounds; ++i) sum = sum + (i ^ (i >> 3));
  return sum;
}

int main() {
  const char* text = std::getenv("AB_EXTRA_PERCENT");
  char* end = nullptr;
  const unsigned long extra = text == nullptr ? 0 : std::strtoul(text, &end, 10);
  if (text != nullptr && (*text == '\0' || *end != '\0' || extra > 1000)) {
    std::fprintf(stderr, "ab_work: AB_EXTRA_PERCENT must be 0..1000, got '%s'\n", text);
    return 64;
  }
  const unsigned long total = cheap(cheap_rounds) + expensive(base_rounds * (100 + extra) / 100);
  std::printf("ab_work: extra %lu%%, %lu\n", extra, total);
  return 0;
}
