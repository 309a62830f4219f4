// Where the bytes that matter to a CSV parser lie in a 64-byte block, as bit masks: one compare
// per 16 bytes instead of one branch per byte. The parser then jumps from one such byte to the
// next with a count of trailing zeros, which is what lets a kernel trace read at memory speed.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif
// AVX2 through a target attribute, taken only where the processor has it: the build stays
// baseline x86-64, and a block's masks cost two compares per byte class instead of four.
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define AORTA_CSV_AVX2 1
#include <immintrin.h>
#endif

namespace aorta::detail {

inline constexpr std::size_t csv_block_bytes = 64;

struct csv_block_masks {
  std::uint64_t quotes = 0;      // bit i: byte i is '"'
  std::uint64_t delimiters = 0;  // bit i: byte i is ',', '\n' or '\r' (ends an unquoted field)
  std::uint64_t line_ends = 0;   // bit i: byte i is '\n' or '\r'
};

// The portable definition, and the path on targets without SSE2. `block` must hold 64 bytes.
inline csv_block_masks csv_block_masks_scalar(const char* block) noexcept {
  csv_block_masks m;
  for (std::size_t i = 0; i < csv_block_bytes; ++i) {
    const char c = block[i];
    m.quotes |= static_cast<std::uint64_t>(c == '"') << i;
    m.delimiters |= static_cast<std::uint64_t>(c == ',' || c == '\n' || c == '\r') << i;
    m.line_ends |= static_cast<std::uint64_t>(c == '\n' || c == '\r') << i;
  }
  return m;
}

#if defined(__SSE2__)
inline csv_block_masks csv_block_masks_sse2(const char* block) noexcept {
  const __m128i quote = _mm_set1_epi8('"');
  const __m128i comma = _mm_set1_epi8(',');
  const __m128i newline = _mm_set1_epi8('\n');
  const __m128i carriage_return = _mm_set1_epi8('\r');
  // movemask yields 16 bits; the cast keeps them from sign-extending into the other lanes.
  const auto bits = [](__m128i v) {
    return static_cast<std::uint64_t>(static_cast<std::uint16_t>(_mm_movemask_epi8(v)));
  };
  csv_block_masks m;
  const auto add_sixteen = [&](unsigned shift) {
    const __m128i bytes =
        _mm_loadu_si128(reinterpret_cast<const __m128i*>(block + shift));  // NOLINT
    const __m128i line_ends =
        _mm_or_si128(_mm_cmpeq_epi8(bytes, newline), _mm_cmpeq_epi8(bytes, carriage_return));
    const __m128i ends = _mm_or_si128(_mm_cmpeq_epi8(bytes, comma), line_ends);
    m.quotes |= bits(_mm_cmpeq_epi8(bytes, quote)) << shift;
    m.delimiters |= bits(ends) << shift;
    m.line_ends |= bits(line_ends) << shift;
  };
  // Four calls, not a loop: -O2 keeps a loop rolled, with a variable shift per step.
  add_sixteen(0);
  add_sixteen(16);
  add_sixteen(32);
  add_sixteen(48);
  return m;
}
#endif

#if defined(AORTA_CSV_AVX2)
inline bool csv_detect_avx2() noexcept {
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx2") != 0;
}
inline const bool csv_has_avx2 = csv_detect_avx2();

// Call only where csv_has_avx2. Written without lambdas: a lambda would not inherit the target.
__attribute__((target("avx2"))) inline csv_block_masks
csv_block_masks_avx2(const char* block) noexcept {
  const __m256i low = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(block));  // NOLINT
  const __m256i high =
      _mm256_loadu_si256(reinterpret_cast<const __m256i*>(block + 32));  // NOLINT
  const __m256i quote = _mm256_set1_epi8('"');
  const __m256i comma = _mm256_set1_epi8(',');
  const __m256i newline = _mm256_set1_epi8('\n');
  const __m256i carriage_return = _mm256_set1_epi8('\r');
  const __m256i low_line_ends = _mm256_or_si256(_mm256_cmpeq_epi8(low, newline),
                                                _mm256_cmpeq_epi8(low, carriage_return));
  const __m256i high_line_ends = _mm256_or_si256(_mm256_cmpeq_epi8(high, newline),
                                                 _mm256_cmpeq_epi8(high, carriage_return));
  // movemask yields 32 bits as an int; through uint32 they do not sign-extend.
  const auto low_bits = [](int mask) { return std::uint64_t{static_cast<std::uint32_t>(mask)}; };
  const auto high_bits = [](int mask) {
    return std::uint64_t{static_cast<std::uint32_t>(mask)} << 32;
  };
  csv_block_masks m;
  m.quotes = low_bits(_mm256_movemask_epi8(_mm256_cmpeq_epi8(low, quote))) |
             high_bits(_mm256_movemask_epi8(_mm256_cmpeq_epi8(high, quote)));
  m.line_ends = low_bits(_mm256_movemask_epi8(low_line_ends)) |
                high_bits(_mm256_movemask_epi8(high_line_ends));
  m.delimiters = m.line_ends |
                 low_bits(_mm256_movemask_epi8(_mm256_cmpeq_epi8(low, comma))) |
                 high_bits(_mm256_movemask_epi8(_mm256_cmpeq_epi8(high, comma)));
  return m;
}
#endif

inline csv_block_masks csv_block_masks_of(const char* block) noexcept {
#if defined(AORTA_CSV_AVX2)
  if (csv_has_avx2) return csv_block_masks_avx2(block);
#endif
#if defined(__SSE2__)
  return csv_block_masks_sse2(block);
#else
  return csv_block_masks_scalar(block);
#endif
}

#if defined(AORTA_CSV_AVX2)
__attribute__((target("avx2"))) inline void
csv_block_masks_fill_avx2(const char* data, std::size_t blocks, csv_block_masks* out) noexcept {
  for (std::size_t i = 0; i < blocks; ++i) out[i] = csv_block_masks_avx2(data + i * csv_block_bytes);
}
#endif

// The masks of `blocks` blocks from `data`, one pass per read: the row loop then finds them with
// a load, not a compare per 16 bytes (or a call per block into the AVX2 code).
inline void csv_block_masks_fill(const char* data, std::size_t blocks,
                                 csv_block_masks* out) noexcept {
#if defined(AORTA_CSV_AVX2)
  if (csv_has_avx2) {
    csv_block_masks_fill_avx2(data, blocks, out);
    return;
  }
#endif
  for (std::size_t i = 0; i < blocks; ++i) out[i] = csv_block_masks_of(data + i * csv_block_bytes);
}

// A block read as if every row were plain (quotes only around whole fields, no doubled quote),
// from the start of the buffer on: quotes toggle inside and outside, and `irregular` marks each
// byte that breaks that reading (a quote opening mid-field, a byte other than a delimiter after
// a closing quote). A row that starts after an outside line end and holds no irregular byte
// reads exactly so, whatever came before it.
struct csv_plain_masks {
  std::uint64_t commas = 0;     // outside quotes
  std::uint64_t line_ends = 0;  // outside quotes
  std::uint64_t irregular = 0;
};

// std::popcount without -mpopcnt is a call into libgcc; x86-64's baseline has no popcnt, and
// this runs once or twice per row.
constexpr std::size_t count_bits(std::uint64_t bits) noexcept {
  bits -= (bits >> 1) & 0x5555555555555555;
  bits = (bits & 0x3333333333333333) + ((bits >> 2) & 0x3333333333333333);
  bits = (bits + (bits >> 4)) & 0x0F0F0F0F0F0F0F0F;
  return static_cast<std::size_t>((bits * 0x0101010101010101) >> 56);
}

// Bit i: the parity of the set bits at positions 0..i. Applied to a quote mask it marks the bytes
// inside quotes (each quote toggles), the way a parser that never looks back would see them.
constexpr std::uint64_t prefix_xor(std::uint64_t bits) noexcept {
  // Written out: -O2 does not unroll the loop, and this runs once per block of a row.
  bits ^= bits << 1;
  bits ^= bits << 2;
  bits ^= bits << 4;
  bits ^= bits << 8;
  bits ^= bits << 16;
  bits ^= bits << 32;
  return bits;
}

// What one block of the plain reading hands to the next.
struct csv_plain_carry {
  std::uint64_t inside = 0;        // all ones: the block before ended inside quotes
  std::uint64_t field_start = 1;   // bit 0 starts a field
  std::uint64_t after_closer = 0;  // bit 0 follows a closing quote
};

// One block's plain masks from its masks and prefix_xor(m.quotes).
[[gnu::always_inline]] inline csv_plain_masks csv_plain_step(const csv_block_masks& m,
                                                             std::uint64_t quote_prefix,
                                                             csv_plain_carry& carry) noexcept {
  const std::uint64_t parity = quote_prefix ^ carry.inside;
  const std::uint64_t outside_ends = m.delimiters & ~parity;
  const std::uint64_t field_starts = (outside_ends << 1) | carry.field_start;
  const std::uint64_t openers = m.quotes & parity;
  const std::uint64_t closers = m.quotes & ~parity;
  csv_plain_masks out;
  out.commas = outside_ends & ~m.line_ends;
  out.line_ends = outside_ends & m.line_ends;
  out.irregular =
      (openers & ~field_starts) | (((closers << 1) | carry.after_closer) & ~m.delimiters);
  carry.inside = std::uint64_t{0} - (parity >> 63);
  carry.field_start = outside_ends >> 63;
  carry.after_closer = closers >> 63;
  return out;
}

// csv_plain_masks of `blocks` blocks from their masks, the buffer's first byte a field's first.
inline void csv_plain_masks_fill(const csv_block_masks* masks, std::size_t blocks,
                                 csv_plain_masks* out) noexcept {
  csv_plain_carry carry;
  for (std::size_t i = 0; i < blocks; ++i) {
    out[i] = csv_plain_step(masks[i], prefix_xor(masks[i].quotes), carry);
  }
}

#if defined(AORTA_CSV_AVX2)
inline bool csv_detect_avx2_clmul() noexcept {
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx2") != 0 && __builtin_cpu_supports("pclmul") != 0;
}
inline const bool csv_has_avx2_clmul = csv_detect_avx2_clmul();

// Call only where csv_has_avx2_clmul. Both kinds of masks in one pass over the bytes, the quote
// parity by one carry-less multiply by all ones instead of six shifts and xors.
__attribute__((target("avx2,pclmul"))) inline void
csv_masks_fill_both_avx2(const char* data, std::size_t blocks, csv_block_masks* out,
                         csv_plain_masks* plain_out) noexcept {
  csv_plain_carry carry;
  const __m128i all_ones = _mm_set1_epi8(-1);
  for (std::size_t i = 0; i < blocks; ++i) {
    const csv_block_masks m = csv_block_masks_avx2(data + i * csv_block_bytes);
    out[i] = m;
    const __m128i quotes = _mm_cvtsi64_si128(static_cast<long long>(m.quotes));
    const auto quote_prefix =
        static_cast<std::uint64_t>(_mm_cvtsi128_si64(_mm_clmulepi64_si128(quotes, all_ones, 0)));
    plain_out[i] = csv_plain_step(m, quote_prefix, carry);
  }
}
#endif

// Finds the next quote or field end in a buffer, one block's masks at a time. Blocks start at
// multiples of 64 from the buffer's start, and `blocks` holds the masks of each block below
// `end`, those of the last taken with the bytes past `end` holding no quote, comma or line end
// (the scanner zeroes them), so a block that ends past the data finds nothing there.
// A value type, so a parser keeps it in registers and stores it back once per row.
class csv_block_cursor {
public:
  csv_block_cursor() = default;
  csv_block_cursor(const csv_block_masks* blocks, std::size_t end) noexcept
      : m_blocks(blocks), m_end(end) {}

  // The first '"' (Quotes) or ',', '\n', '\r' (otherwise) at or after `from` (<= end); `end` if
  // none.
  template <bool Quotes>
  [[nodiscard]] std::size_t next(std::size_t from) noexcept {
    std::size_t base = from & ~(csv_block_bytes - 1);
    std::uint64_t from_here = ~std::uint64_t{0} << (from - base);
    while (base < m_end) {
      if (base != m_base) load(base);
      const std::uint64_t hits = (Quotes ? m_masks.quotes : m_masks.delimiters) & from_here;
      if (hits != 0) return base + static_cast<std::size_t>(std::countr_zero(hits));
      base += csv_block_bytes;
      from_here = ~std::uint64_t{0};
    }
    return m_end;
  }

  struct skipped_fields {
    std::size_t field_start;  // where the field after the last comma passed begins
    std::size_t commas;       // the fields passed over
  };
  // Passes over at most `most` commas from `from`, stopping before the first quote or line end:
  // the fields passed are unquoted, and a caller that does not need them need not visit each.
  [[nodiscard]] skipped_fields skip_unquoted(std::size_t from, std::size_t most) noexcept {
    skipped_fields skipped{from, 0};
    std::size_t base = from & ~(csv_block_bytes - 1);
    std::uint64_t from_here = ~std::uint64_t{0} << (from - base);
    while (base < m_end) {
      if (base != m_base) load(base);
      const std::uint64_t stops = (m_masks.quotes | m_masks.line_ends) & from_here;
      std::uint64_t commas = m_masks.delimiters & ~m_masks.line_ends & from_here;
      if (stops != 0) commas &= (stops & (~stops + 1)) - 1;  // only those before the first stop
      const std::size_t found = count_bits(commas);
      if (found >= most - skipped.commas) {
        for (std::size_t passed = skipped.commas + 1; passed < most; ++passed) {
          commas &= commas - 1;
        }
        skipped.field_start = base + static_cast<std::size_t>(std::countr_zero(commas)) + 1;
        skipped.commas = most;
        return skipped;
      }
      if (commas != 0) {
        skipped.commas += found;
        skipped.field_start =
            base + csv_block_bytes - static_cast<std::size_t>(std::countl_zero(commas));
      }
      if (stops != 0) break;
      base += csv_block_bytes;
      from_here = ~std::uint64_t{0};
    }
    return skipped;
  }

private:
  static constexpr std::size_t no_block = static_cast<std::size_t>(-1);

  void load(std::size_t base) noexcept {
    m_masks = m_blocks[base / csv_block_bytes];
    m_base = base;
  }

  const csv_block_masks* m_blocks = nullptr;
  std::size_t m_end = 0;
  std::size_t m_base = no_block;
  csv_block_masks m_masks;
};

}  // namespace aorta::detail
