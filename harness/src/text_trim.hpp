// Trimming, one rule for every parser. Which characters count as space around a value is the
// format's choice (a CSV field keeps a line feed it was quoted with, a recipe value does not), so
// it is a parameter here rather than another copy of the loop.
#pragma once

#include <string_view>

namespace aorta::detail {

// Space and tab: what a CSV field, a callgrind line or a scope path has around its text.
inline constexpr std::string_view blanks = " \t";
// What std::isspace accepts in the C locale: blanks, line ends, vertical tab and form feed.
inline constexpr std::string_view whitespace = " \t\n\v\f\r";

// `text` without its leading characters from `front` and its trailing ones from `back`.
[[nodiscard]] constexpr std::string_view trim_ends(std::string_view text, std::string_view front,
                                                   std::string_view back) noexcept {
  const auto first = text.find_first_not_of(front);
  if (first == std::string_view::npos) return text.substr(text.size());
  text.remove_prefix(first);
  const auto last = text.find_last_not_of(back);
  return text.substr(0, last == std::string_view::npos ? 0 : last + 1);
}

// `text` without leading and trailing characters from `chars`.
[[nodiscard]] constexpr std::string_view trim(std::string_view text,
                                              std::string_view chars = whitespace) noexcept {
  return trim_ends(text, chars, chars);
}

// A line of a text log: blanks around it, and the carriage return of a CRLF file at its end.
[[nodiscard]] constexpr std::string_view trim_line(std::string_view text) noexcept {
  return trim_ends(text, blanks, " \t\r");
}

}  // namespace aorta::detail
