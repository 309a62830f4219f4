#include "checks/check_bounds.hpp"

#include "aorta/error.hpp"
#include "checks/check_forms.hpp"
#include "metrics/quantity_table.hpp"
#include "text_trim.hpp"

#include <fmt/format.h>

#include <array>
#include <charconv>
#include <cmath>

namespace aorta::detail {
namespace {

bool is_bound_digit(char c) {
  return c >= '0' && c <= '9';
}

}  // namespace

bool is_check_space(char c) noexcept {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

void check_cursor::skip_spaces() noexcept {
  while (!at_end() && is_check_space(text[pos])) ++pos;
}

void check_cursor::fail(std::size_t at, std::string_view expected, std::string_view example) const {
  std::string shown(text);
  for (char& c : shown) {
    if (is_check_space(c)) c = ' ';
  }
  throw usage_error(
      fmt::format("check expression error at column {}: expected {}\n  {}\n  {}^\nexample: {}",
                  at + 1, expected, shown, std::string(at, ' '), example));
}

compare_op read_op(check_cursor& cursor, std::string_view example) {
  const std::string_view rest = cursor.text.substr(cursor.pos);
  struct spelling {
    std::string_view text;
    compare_op op;
  };
  // Two-character operators first so "<=" is not read as "<".
  static constexpr std::array<spelling, 6> spellings{{{"==", compare_op::equal},
                                                      {"!=", compare_op::not_equal},
                                                      {"<=", compare_op::less_equal},
                                                      {">=", compare_op::greater_equal},
                                                      {"<", compare_op::less},
                                                      {">", compare_op::greater}}};
  for (const auto& candidate : spellings) {
    if (rest.starts_with(candidate.text)) {
      cursor.pos += candidate.text.size();
      return candidate.op;
    }
  }
  if (rest.starts_with("=")) {
    cursor.fail(cursor.pos,
                "a comparison operator (== != < <= > >=); '=' alone is not one, use '=='", example);
  }
  if (rest.starts_with("~")) {
    cursor.fail(cursor.pos, "a comparison operator (== != < <= > >=); '~' only follows top_kernel",
                example);
  }
  cursor.fail(cursor.pos, "a comparison operator (== != < <= > >=)", example);
}

number_token read_number(check_cursor& cursor, std::string_view example) {
  const std::string_view text = cursor.text;
  const std::size_t start = cursor.pos;
  std::size_t i = cursor.pos;
  if (i < text.size() && (text[i] == '+' || text[i] == '-')) ++i;
  std::size_t digits = 0;
  while (i < text.size() && is_bound_digit(text[i])) ++i, ++digits;
  if (i < text.size() && text[i] == '.') {
    ++i;
    while (i < text.size() && is_bound_digit(text[i])) ++i, ++digits;
  }
  if (digits == 0) cursor.fail(start, "a number", example);
  if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
    std::size_t j = i + 1;
    if (j < text.size() && (text[j] == '+' || text[j] == '-')) ++j;
    if (j < text.size() && is_bound_digit(text[j])) {
      while (j < text.size() && is_bound_digit(text[j])) ++j;
      i = j;
    }
  }
  const std::string_view token = text.substr(start, i - start);
  // from_chars takes no leading '+'.
  const std::string_view digits_text = token.front() == '+' ? token.substr(1) : token;
  double value = 0.0;
  const auto [end, error] =
      std::from_chars(digits_text.data(), digits_text.data() + digits_text.size(), value);
  if (error != std::errc{} || end != digits_text.data() + digits_text.size() ||
      !std::isfinite(value)) {
    cursor.fail(start, "a finite number", example);
  }
  cursor.pos = i;
  return {value, std::string(token)};
}

// `baseline`, `baseline + N%` or `baseline - N%` (docs/regression-gate.md).
baseline_bound read_baseline_bound(check_cursor& cursor, check_quantity quantity, compare_op op,
                                   rank_reduction over_ranks) {
  static constexpr std::string_view example = "time_ms(^gemm) <= baseline + 5%";
  const std::size_t start = cursor.pos;
  cursor.pos += std::string_view("baseline").size();
  const quantity_declaration& declared = declaration_of(quantity);
  if (!declared.numeric) cursor.fail(start, "a regex", example);
  // A baseline holds a trial's metrics, and these are not among them.
  if (!declared.baseline_refusal.empty()) {
    const function_form* form = find_form(declared.check_name);
    cursor.fail(
        start,
        fmt::format("a number after {}(...): {}", declared.check_name, declared.baseline_refusal),
        form != nullptr ? form->example : example);
  }
  if (op == compare_op::not_equal) {
    cursor.fail(start, "'==', '<=' or '>=' before baseline ('!= baseline' is no regression rule)",
                example);
  }
  // A baseline keeps each trial's sum over the ranks: the gate would judge that sum, not the
  // maximum, minimum or imbalance the check names.
  if (over_ranks != rank_reduction::none) {
    cursor.fail(start,
                fmt::format("a number after {}(...): a baseline holds each trial's sum over the "
                            "ranks, so a rank reduction cannot be judged against it",
                            to_string(over_ranks)),
                "imbalance(time_ms(^gemm)) < 1.2");
  }
  cursor.skip_spaces();
  double sign = 0.0;
  double fraction = 0.0;
  const std::size_t sign_pos = cursor.pos;
  if (cursor.peek() == '+' || cursor.peek() == '-') {
    sign = cursor.peek() == '+' ? 1.0 : -1.0;
    ++cursor.pos;
    cursor.skip_spaces();
    if (cursor.peek() == '+' || cursor.peek() == '-') {
      cursor.fail(sign_pos,
                  "one signed tolerance: 'baseline + 5%' (at most 5% above) or "
                  "'baseline - 5%' (at most 5% below); '+-' is not one",
                  example);
    }
  } else if (!cursor.at_end()) {
    cursor.fail(cursor.pos, "'+ N%' or '- N%' after baseline, or the end of the expression",
                example);
  }
  if (sign != 0.0) {
    const number_token number = read_number(cursor, example);
    if (cursor.peek() != '%') {
      cursor.fail(cursor.pos,
                  fmt::format("a unit after the tolerance: write 'baseline {} {}%' (a "
                              "percentage of the baseline's median)",
                              sign > 0 ? '+' : '-', number.text),
                  example);
    }
    ++cursor.pos;
    if (number.value < 0 || number.text.front() == '+') {
      cursor.fail(sign_pos, "an unsigned percentage after the sign", example);
    }
    // 100% or more below the median is a bound of zero or less: every value would pass.
    if (sign < 0 && number.value >= 100.0) {
      cursor.fail(sign_pos,
                  fmt::format("a percentage below 100 after 'baseline -' ('baseline - {}%' "
                              "is zero or negative, so every value would pass)",
                              number.text),
                  "time_ms(^gemm) >= baseline - 20%");
    }
    if (op == compare_op::equal) {
      cursor.fail(sign_pos,
                  "the end after '== baseline': an exact match takes no tolerance; use "
                  "'<= baseline + N%' or '>= baseline - N%'",
                  example);
    }
    fraction = sign * number.value / 100.0;
  }
  return baseline_bound{fraction, std::string(trim(cursor.text.substr(start, cursor.pos - start)))};
}

}  // namespace aorta::detail
