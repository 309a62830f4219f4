// Comparing a token with a known key or value, the readers' most frequent question. The length
// of a literal is known at compile time, so the compare is one or two loads: std::string_view's
// operator== takes a runtime length, which compilers leave as a call to memcmp (in the hatchet
// and chrome trace readers those calls were a tenth of all instructions).
#pragma once

#include <cstddef>
#include <cstring>
#include <string_view>

namespace aorta::detail {

template <std::size_t N>
[[gnu::always_inline]] inline bool equals_literal(std::string_view text,
                                                  const char (&literal)[N]) noexcept {
  static_assert(N >= 1, "a string literal, with its terminating zero");
  // No memcmp for "": an empty view's data() may be null, which memcmp must not be given.
  if constexpr (N == 1) return text.empty();
  else return text.size() == N - 1 && std::memcmp(text.data(), literal, N - 1) == 0;
}

}  // namespace aorta::detail
