// The CPU twin of proton/amd-instrumentation: two functions with a lopsided, predictable cost.
// `cheap` runs ELEMENTS rounds of a xorshift64 step; `expensive` runs STEPS rounds for each of
// ELEMENTS elements, so callgrind should count about STEPS times as many instructions (Ir) in it.
//
//   cpu_hotspot [ELEMENTS [STEPS]]      defaults 65536 and 32
//
// Exit codes: 0 PASS, 1 wrong result, 64 usage error.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string_view>

// noipa (GCC) keeps each function a separate symbol with its own cost: no inlining, no cloning,
// and no identical-code folding with `reference_rounds`, which computes the same thing.
#if defined(__GNUC__) && !defined(__clang__)
#define HOTSPOT_OPAQUE __attribute__((noipa))
#else
#define HOTSPOT_OPAQUE __attribute__((noinline))
#endif

namespace {

constexpr std::uint64_t default_elements = 65536;
constexpr std::uint64_t default_steps = 32;
constexpr std::uint64_t max_steps = 4096;
constexpr std::uint64_t seed = 0x9E3779B97F4A7C15ull;

// One xorshift64 round: each output depends on the previous one, so the loops below can be
// neither vectorised nor folded into a closed form.
constexpr std::uint64_t round(std::uint64_t x) {
  x ^= x << 13;
  x ^= x >> 7;
  x ^= x << 17;
  return x;
}

bool parse(const char* text, std::uint64_t limit, std::uint64_t& out) {
  char* end = nullptr;
  const unsigned long long value = std::strtoull(text, &end, 10);
  if (*text == '\0' || *text == '-' || *end != '\0' || value == 0 || value > limit) {
    return false;
  }
  out = value;
  return true;
}

}  // namespace

HOTSPOT_OPAQUE std::uint64_t cheap(std::uint64_t state, std::uint64_t elements) {
  for (std::uint64_t i = 0; i < elements; ++i) {
    state = round(state);
  }
  return state;
}

HOTSPOT_OPAQUE std::uint64_t expensive(std::uint64_t state, std::uint64_t elements,
                                       std::uint64_t steps) {
  for (std::uint64_t i = 0; i < elements; ++i) {
    for (std::uint64_t s = 0; s < steps; ++s) {
      state = round(state);
    }
  }
  return state;
}

// The self-check's independent answer: the same rounds, counted as one flat total.
HOTSPOT_OPAQUE std::uint64_t reference_rounds(std::uint64_t state, std::uint64_t total) {
  while (total-- > 0) {
    state = round(state);
  }
  return state;
}

int main(int argc, char** argv) {
  std::uint64_t elements = default_elements;
  std::uint64_t steps = default_steps;
  const bool usage_ok = argc <= 3 && (argc < 2 || parse(argv[1], 1ull << 32, elements)) &&
                        (argc < 3 || parse(argv[2], max_steps, steps));
  if (!usage_ok) {
    std::fprintf(stderr,
                 "usage: cpu_hotspot [ELEMENTS [STEPS]]\n"
                 "  ELEMENTS: 1..4294967296 (default %llu); STEPS: 1..%llu (default %llu)\n",
                 static_cast<unsigned long long>(default_elements),
                 static_cast<unsigned long long>(max_steps),
                 static_cast<unsigned long long>(default_steps));
    return 64;
  }
  std::printf("cpu_hotspot: elements=%llu steps=%llu\n", static_cast<unsigned long long>(elements),
              static_cast<unsigned long long>(steps));

  const std::uint64_t cheap_result = cheap(seed, elements);
  const std::uint64_t expensive_result = expensive(seed, elements, steps);
  std::printf("cpu_hotspot: cheap=%016llx expensive=%016llx\n",
              static_cast<unsigned long long>(cheap_result),
              static_cast<unsigned long long>(expensive_result));

  const bool cheap_ok = cheap_result == reference_rounds(seed, elements);
  const bool expensive_ok = expensive_result == reference_rounds(seed, elements * steps);
  if (!cheap_ok || !expensive_ok) {
    std::printf("cpu_hotspot: FAIL (%s disagrees with the reference)\n",
                cheap_ok ? "expensive" : "cheap");
    return 1;
  }
  std::printf("cpu_hotspot: PASS\n");
  return 0;
}
