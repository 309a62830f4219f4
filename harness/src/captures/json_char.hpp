// Byte classes of JSON text and the loops that skip runs of them, for json_scanner.hpp: strings,
// whitespace and numbers are most of a profile's bytes, so each is scanned in one tight pass
// (16 bytes at a time where SSE2 exists, every x86-64 CPU). No loop reads at or past `lim`.
#pragma once

#include <initializer_list>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace aorta::detail {

namespace json_char {
// Bit 1: whitespace. Bit 2: ends the fast string loop ('"', '\\', control characters).
// Bit 4: may appear in a number token.
inline constexpr auto table = [] {
  struct t {
    unsigned char v[256]{};
  } r;
  for (int c : {' ', '\t', '\n', '\r'}) r.v[c] |= 1;
  for (int c = 0; c < 0x20; ++c) r.v[c] |= 2;
  r.v[static_cast<unsigned char>('"')] |= 2;
  r.v[static_cast<unsigned char>('\\')] |= 2;
  for (int c = '0'; c <= '9'; ++c) r.v[c] |= 4;
  for (int c : {'-', '+', '.', 'e', 'E'}) r.v[c] |= 4;
  return r;
}();
inline bool is_space(char c) noexcept {
  return (table.v[static_cast<unsigned char>(c)] & 1) != 0;
}
inline bool ends_plain_string(char c) noexcept {
  return (table.v[static_cast<unsigned char>(c)] & 2) != 0;
}
inline bool in_number(char c) noexcept {
  return (table.v[static_cast<unsigned char>(c)] & 4) != 0;
}
// The first byte in [p, lim) that ends the fast string loop, or lim. Strings (names, keys) are
// most of a profile's bytes, so they are scanned 16 bytes at a time where SSE2 exists (every
// x86-64 CPU); inlined, because most strings end in the first 16 bytes and a call costs as much.
[[gnu::always_inline]] inline const char* skip_plain_string(const char* p,
                                                           const char* const lim) noexcept {
#if defined(__SSE2__)
  const __m128i quote = _mm_set1_epi8('"');
  const __m128i backslash = _mm_set1_epi8('\\');
  const __m128i last_control = _mm_set1_epi8(0x1F);
  while (lim - p >= 16) {
    const __m128i bytes = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
    // Unsigned bytes <= 0x1F are the control characters: min(b, 0x1F) == b.
    const __m128i control = _mm_cmpeq_epi8(_mm_min_epu8(bytes, last_control), bytes);
    const __m128i stops = _mm_or_si128(
        _mm_or_si128(_mm_cmpeq_epi8(bytes, quote), _mm_cmpeq_epi8(bytes, backslash)), control);
    const auto mask = static_cast<unsigned>(_mm_movemask_epi8(stops));
    if (mask != 0) return p + __builtin_ctz(mask);
    p += 16;
  }
#endif
  while (p < lim && !ends_plain_string(*p)) ++p;
  return p;
}
inline bool is_digit(char c) noexcept { return static_cast<unsigned char>(c - '0') < 10; }
// The first byte in [p, lim) that is not an ASCII digit, or lim; 16 bytes at a time where SSE2
// exists, never reading at or past lim.
inline const char* skip_digits(const char* p, const char* const lim) noexcept {
#if defined(__SSE2__)
  const __m128i zero = _mm_set1_epi8('0');
  const __m128i nine = _mm_set1_epi8(9);
  while (lim - p >= 16) {
    const __m128i offset =
        _mm_sub_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p)), zero);
    // A digit's offset from '0' is 0..9 as an unsigned byte: min(offset, 9) == offset.
    const __m128i digits = _mm_cmpeq_epi8(_mm_min_epu8(offset, nine), offset);
    const auto others = static_cast<unsigned>(~_mm_movemask_epi8(digits)) & 0xFFFFU;
    if (others != 0) return p + __builtin_ctz(others);
    p += 16;
  }
#endif
  while (p < lim && is_digit(*p)) ++p;
  return p;
}
// The end of the JSON number that starts at p, or nullptr when [p, lim) does not start with one.
// Never reads at or past lim.
inline const char* match_number(const char* p, const char* const lim) noexcept {
  if (p < lim && *p == '-') ++p;
  if (p == lim || !is_digit(*p)) return nullptr;
  p = *p == '0' ? p + 1 : skip_digits(p, lim);
  if (p < lim && *p == '.') {
    ++p;
    if (p == lim || !is_digit(*p)) return nullptr;
    p = skip_digits(p, lim);
  }
  if (p < lim && (*p == 'e' || *p == 'E')) {
    ++p;
    if (p < lim && (*p == '+' || *p == '-')) ++p;
    if (p == lim || !is_digit(*p)) return nullptr;
    p = skip_digits(p, lim);
  }
  return p;
}
}  // namespace json_char

}  // namespace aorta::detail
