// The right-hand side of a check (aorta/check.hpp): the comparison operator, a plain number, or
// a `baseline [+|- N%]` bound; and the cursor and error every step of the check parser shares.
#pragma once

#include "aorta/check.hpp"

#include <cstddef>
#include <string>
#include <string_view>

namespace aorta::detail {

// The expression being parsed and the position in it.
struct check_cursor {
  std::string_view text;
  std::size_t pos = 0;

  [[nodiscard]] bool at_end() const noexcept { return pos >= text.size(); }
  [[nodiscard]] char peek() const noexcept { return at_end() ? '\0' : text[pos]; }
  void skip_spaces() noexcept;
  // Throws usage_error naming the 1-based column, with a caret line, what was expected and an
  // example.
  [[noreturn]] void fail(std::size_t at, std::string_view expected, std::string_view example) const;
};

[[nodiscard]] bool is_check_space(char c) noexcept;

// == != < <= > >= at the cursor.
[[nodiscard]] compare_op read_op(check_cursor& cursor, std::string_view example);

struct number_token {
  double value = 0.0;
  std::string text;  // as written, for messages ("60", "1e3")
};

// A plain decimal number: optional sign, fraction and exponent; finite.
[[nodiscard]] number_token read_number(check_cursor& cursor, std::string_view example);

// At the word `baseline`: the bound up to the end of the expression, refused for a left-hand
// side or operator that cannot be judged against a baseline.
[[nodiscard]] baseline_bound read_baseline_bound(check_cursor& cursor, check_quantity quantity,
                                                 compare_op op, rank_reduction over_ranks);

}  // namespace aorta::detail
