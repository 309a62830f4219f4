#include "aorta/check.hpp"
#include "aorta/error.hpp"
#include "checks/ncu_checks.hpp"
#include "collectors/ncu/ncu_options.hpp"
#include "checks/check_forms.hpp"
#include "checks/scope_checks.hpp"
#include "text_trim.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>

namespace aorta {
namespace detail {

namespace {

constexpr std::string_view metric_example = "proton_kernel_count >= 60";
constexpr std::string_view top_kernel_example = "top_kernel ~ ^sgemm";
constexpr std::string_view any_example = "count(add_kernel) == 20";
constexpr std::string_view rank_example = "imbalance(time_ms(^gemm)) < 1.2";

bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}
bool is_digit(char c) {
  return c >= '0' && c <= '9';
}
bool is_name_start(char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_';
}
bool is_name_char(char c) {
  return is_name_start(c) || is_digit(c) || c == '.' || c == '/' || c == ':' || c == '-';
}

}  // namespace

class check_parser {
public:
  explicit check_parser(std::string_view text) : m_text(text) {}

  check_expression parse() {
    check_expression result;
    result.m_text = std::string(trim(m_text));
    skip_spaces();
    if (at_end()) fail(m_pos, "a check expression, found nothing", any_example);
    const std::size_t name_start = m_pos;
    const std::string_view name = read_name();
    if (name.empty()) {
      fail(m_pos, fmt::format("a metric name or one of {}, top_kernel", form_list()), any_example);
    }
    skip_spaces();
    if (name == "top_kernel" && (peek() == '~' || peek() == '(')) {
      if (peek() == '(') {
        const std::size_t scope_pos = m_pos + 1;
        const std::string_view argument = read_argument("top_kernel", top_kernel_example);
        std::optional<name_regex> unused;
        if (!scoped(argument, scope_pos, check_quantity::top_kernel, top_kernel_example,
                    result.m_scope, unused))
          fail(scope_pos, "under(PATH) inside top_kernel(...)", "top_kernel(under(decode)) ~ gemv");
        // The kernel regex of top_kernel is the one after '~'; a second one here was ignored.
        if (!split_scope_argument(argument)->kernels.empty()) {
          fail(scope_pos, "only under(PATH) inside top_kernel(...): the kernel regex goes after "
                          "'~'",
               "top_kernel(under(decode)) ~ gemv");
        }
        skip_spaces();
        if (peek() != '~') fail(m_pos, "'~' after top_kernel(under(...))", top_kernel_example);
      }
      parse_top_kernel(result);
      return result;
    }
    std::string_view example = metric_example;
    if (peek() == '(' && parse_rank_reduction(name, result)) {
      example = rank_example;
    } else if (peek() == '(') {
      const function_form* form = find_form(name);
      if (form == nullptr) {
        fail(name_start, fmt::format("one of {}, found '{}('", form_list(), name), any_example);
      }
      example = form->example;
      parse_call(*form, result);
    } else {
      if (name == "top_kernel") fail(m_pos, "'~' after top_kernel", top_kernel_example);
      result.m_quantity = check_quantity::metric;
      result.m_argument = std::string(name);
    }
    skip_spaces();
    result.m_op = read_op(example);
    skip_spaces();
    if (m_text.substr(m_pos).starts_with("baseline")) {
      read_baseline_bound(result);
    } else {
      read_number(result, example);
    }
    skip_spaces();
    if (!at_end()) {
      fail(m_pos, "the end of the expression after the number (plain numbers only)", example);
    }
    return result;
  }

private:
  [[nodiscard]] bool at_end() const { return m_pos >= m_text.size(); }
  [[nodiscard]] char peek() const { return at_end() ? '\0' : m_text[m_pos]; }
  void skip_spaces() {
    while (!at_end() && is_space(m_text[m_pos])) ++m_pos;
  }

  std::string_view read_name() {
    const std::size_t start = m_pos;
    if (at_end() || !is_name_start(m_text[m_pos])) return {};
    while (!at_end() && is_name_char(m_text[m_pos])) ++m_pos;
    return m_text.substr(start, m_pos - start);
  }

  [[noreturn]] void fail(std::size_t pos, std::string_view expected,
                         std::string_view example) const {
    std::string shown(m_text);
    for (char& c : shown) {
      if (is_space(c)) c = ' ';
    }
    throw usage_error(
        fmt::format("check expression error at column {}: expected {}\n  {}\n  {}^\nexample: {}",
                    pos + 1, expected, shown, std::string(pos, ' '), example));
  }

  name_regex compile(std::string_view pattern, std::size_t pos, std::string_view example) const {
    try {
      return name_regex::compile(pattern);
    } catch (const std::invalid_argument& error) {
      fail(pos,
           fmt::format("a valid regex (RE2 syntax), but '{}' is not: {}", pattern, error.what()),
           example);
    }
  }

  // At '(' : returns the trimmed argument and leaves m_pos after the matching ')'.
  std::string_view read_argument(std::string_view function, std::string_view example) {
    const std::size_t open = m_pos;
    int depth = 0;
    bool in_bracket = false;
    for (std::size_t i = open; i < m_text.size(); ++i) {
      const char c = m_text[i];
      if (c == '\\') {
        ++i;  // the escaped character is literal, whatever it is
      } else if (in_bracket) {
        in_bracket = c != ']';
      } else if (c == '[') {
        in_bracket = true;
      } else if (c == '(') {
        ++depth;
      } else if (c == ')' && --depth == 0) {
        m_pos = i + 1;
        const std::string_view argument = trim(m_text.substr(open + 1, i - open - 1));
        if (argument.empty()) {
          fail(i, fmt::format("an argument inside {}()", function), example);
        }
        return argument;
      }
    }
    fail(open, fmt::format("a ')' closing the '(' of {}( at column {}", function, open + 1),
         example);
  }

  void parse_call(const function_form& form, check_expression& result) {
    result.m_quantity = form.quantity;
    const std::size_t argument_pos = m_pos + 1;
    result.m_argument = std::string(read_argument(form.name, form.example));
    if (!scoped(result.m_argument, argument_pos, form.quantity, form.example, result.m_scope,
                result.m_pattern) &&
        form.takes_regex)
      result.m_pattern = compile(result.m_argument, argument_pos, form.example);
    if (form.quantity == check_quantity::ncu)
      result.m_pattern = ncu_kernels(result.m_argument, argument_pos, form.example);
    skip_spaces();
    if (peek() != '/') return;
    ++m_pos;
    skip_spaces();
    const std::size_t denominator_start = m_pos;
    const std::string_view denominator_name = read_name();
    skip_spaces();
    if (denominator_name != form.name || peek() != '(') {
      fail(denominator_start,
           fmt::format("{}( as the denominator: both sides of a ratio use the "
                       "same function",
                       form.name),
           form.example);
    }
    const std::size_t denominator_pos = m_pos + 1;
    result.m_denominator = std::string(read_argument(form.name, form.example));
    if (!scoped(*result.m_denominator, denominator_pos, form.quantity, form.example,
                result.m_denominator_scope, result.m_denominator_pattern) &&
        form.takes_regex) {
      result.m_denominator_pattern = compile(*result.m_denominator, denominator_pos, form.example);
    }
    if (form.quantity == check_quantity::ncu)
      result.m_denominator_pattern = ncu_kernels(*result.m_denominator, denominator_pos, form.example);
  }

  // `METRIC, REGEX` of ncu(...): the compiled kernel regex, the metric checked for spelling.
  name_regex ncu_kernels(std::string_view argument, std::size_t pos, std::string_view example) const {
    const auto parts = split_ncu_argument(argument);
    if (!parts) fail(pos, "an ncu metric name, a comma and a kernel regex inside ncu(...)", example);
    if (!is_ncu_metric_name(parts->metric)) {
      fail(pos, fmt::format("an ncu metric name before the first comma (letters, digits, '_', '.', "
                            "with a '__'), found '{}'",
                            parts->metric),
           example);
    }
    return compile(parts->kernels, pos, example);
  }

  // An under(PATH)[, REGEX] argument (scope_checks.hpp) fills `scope` and `pattern`; false when
  // the argument is not one.
  bool scoped(std::string_view argument, std::size_t pos, check_quantity quantity,
              std::string_view example, std::optional<scope_path>& scope,
              std::optional<name_regex>& pattern) const {
    constexpr std::string_view scoped_example = "time_ms(under(decode)) / time_ms(under(prefill)) "
                                                "< 0.01";
    std::optional<scope_argument> parts;
    try {
      parts = split_scope_argument(argument);
      if (!parts) return false;
      if (quantity != check_quantity::count && quantity != check_quantity::time_ms &&
          quantity != check_quantity::top_kernel)
        fail(pos, "under(...) only inside count(, time_ms( or top_kernel(", example);
      scope = scope_path::parse(parts->path);
    } catch (const std::invalid_argument& error) {
      fail(pos, error.what(), scoped_example);
    }
    pattern = compile(parts->kernels, pos, example);
    return true;
  }

  // `max_over_ranks(F(A))` and friends: false when `name` is not a rank reduction.
  bool parse_rank_reduction(std::string_view name, check_expression& result) {
    static constexpr std::array<std::pair<std::string_view, rank_reduction>, 3> reductions{{
        {"max_over_ranks", rank_reduction::max},
        {"min_over_ranks", rank_reduction::min},
        {"imbalance", rank_reduction::imbalance},
    }};
    const auto found = std::find_if(reductions.begin(), reductions.end(),
                                    [&](const auto& entry) { return entry.first == name; });
    if (found == reductions.end()) return false;
    result.m_over_ranks = found->second;
    ++m_pos;  // '('
    skip_spaces();
    const std::size_t inner_start = m_pos;
    const function_form* form = find_form(read_name());
    skip_spaces();
    if (form == nullptr || peek() != '(') {
      fail(inner_start, fmt::format("one of {} inside {}(", form_list(), name), rank_example);
    }
    parse_call(*form, result);
    skip_spaces();
    if (peek() != ')') fail(m_pos, fmt::format("a ')' closing {}(", name), rank_example);
    ++m_pos;
    return true;
  }

  void parse_top_kernel(check_expression& result) {
    ++m_pos;  // '~'
    skip_spaces();
    const std::string_view pattern = trim(m_text.substr(m_pos));
    if (pattern.empty()) fail(m_pos, "a regex after '~'", top_kernel_example);
    result.m_quantity = check_quantity::top_kernel;
    result.m_argument = std::string(pattern);
    result.m_pattern = compile(pattern, m_pos, top_kernel_example);
  }

  compare_op read_op(std::string_view example) {
    const std::string_view rest = m_text.substr(m_pos);
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
        m_pos += candidate.text.size();
        return candidate.op;
      }
    }
    if (rest.starts_with("=")) {
      fail(m_pos, "a comparison operator (== != < <= > >=); '=' alone is not one, use '=='",
           example);
    }
    if (rest.starts_with("~")) {
      fail(m_pos, "a comparison operator (== != < <= > >=); '~' only follows top_kernel", example);
    }
    fail(m_pos, "a comparison operator (== != < <= > >=)", example);
  }

  void read_number(check_expression& result, std::string_view example) {
    const std::size_t start = m_pos;
    std::size_t i = m_pos;
    if (i < m_text.size() && (m_text[i] == '+' || m_text[i] == '-')) ++i;
    std::size_t digits = 0;
    while (i < m_text.size() && is_digit(m_text[i])) ++i, ++digits;
    if (i < m_text.size() && m_text[i] == '.') {
      ++i;
      while (i < m_text.size() && is_digit(m_text[i])) ++i, ++digits;
    }
    if (digits == 0) fail(start, "a number", example);
    if (i < m_text.size() && (m_text[i] == 'e' || m_text[i] == 'E')) {
      std::size_t j = i + 1;
      if (j < m_text.size() && (m_text[j] == '+' || m_text[j] == '-')) ++j;
      if (j < m_text.size() && is_digit(m_text[j])) {
        while (j < m_text.size() && is_digit(m_text[j])) ++j;
        i = j;
      }
    }
    const std::string_view token = m_text.substr(start, i - start);
    // from_chars takes no leading '+'.
    const std::string_view digits_text = token.front() == '+' ? token.substr(1) : token;
    double value = 0.0;
    const auto [end, error] =
        std::from_chars(digits_text.data(), digits_text.data() + digits_text.size(), value);
    if (error != std::errc{} || end != digits_text.data() + digits_text.size() ||
        !std::isfinite(value)) {
      fail(start, "a finite number", example);
    }
    result.m_threshold = value;
    result.m_threshold_text = std::string(token);
    m_pos = i;
  }

  // `baseline`, `baseline + N%` or `baseline - N%` (docs/regression-gate.md).
  void read_baseline_bound(check_expression& result) {
    static constexpr std::string_view example = "time_ms(^gemm) <= baseline + 5%";
    const std::size_t start = m_pos;
    m_pos += std::string_view("baseline").size();
    if (result.m_quantity == check_quantity::top_kernel) fail(start, "a regex", example);
    if (result.m_quantity == check_quantity::errors) {
      fail(start, "a number after count_errors(...): errors are judged against a count, not a "
                  "baseline",
           "count_errors(fill_kernel) == 0");
    }
    // A baseline holds a trial's metrics, and call counts are not among them.
    if (result.m_quantity == check_quantity::calls) {
      fail(start, "a number after calls(...): call counts are not recorded in baselines, so "
                  "calls() cannot be gated yet; check an exact count instead",
           "calls(^parse_row$) == 1000");
    }
    if (result.m_op == compare_op::not_equal) {
      fail(start, "'==', '<=' or '>=' before baseline ('!= baseline' is no regression rule)",
           example);
    }
    // A baseline keeps each trial's sum over the ranks: the gate would judge that sum, not the
    // maximum, minimum or imbalance the check names.
    if (result.m_over_ranks != rank_reduction::none) {
      fail(start, fmt::format("a number after {}(...): a baseline holds each trial's sum over the "
                              "ranks, so a rank reduction cannot be judged against it",
                              to_string(result.m_over_ranks)),
           "imbalance(time_ms(^gemm)) < 1.2");
    }
    skip_spaces();
    double sign = 0.0;
    const std::size_t sign_pos = m_pos;
    if (peek() == '+' || peek() == '-') {
      sign = peek() == '+' ? 1.0 : -1.0;
      ++m_pos;
      skip_spaces();
      if (peek() == '+' || peek() == '-') {
        fail(sign_pos, "one signed tolerance: 'baseline + 5%' (at most 5% above) or "
                       "'baseline - 5%' (at most 5% below); '+-' is not one",
             example);
      }
    } else if (!at_end()) {
      fail(m_pos, "'+ N%' or '- N%' after baseline, or the end of the expression", example);
    }
    if (sign != 0.0) {
      check_expression number;
      read_number(number, example);
      if (peek() != '%') {
        fail(m_pos, fmt::format("a unit after the tolerance: write 'baseline {} {}%' (a "
                                "percentage of the baseline's median)",
                                sign > 0 ? '+' : '-', number.m_threshold_text),
             example);
      }
      ++m_pos;
      if (number.m_threshold < 0 || number.m_threshold_text.front() == '+') {
        fail(sign_pos, "an unsigned percentage after the sign", example);
      }
      // 100% or more below the median is a bound of zero or less: every value would pass.
      if (sign < 0 && number.m_threshold >= 100.0) {
        fail(sign_pos, fmt::format("a percentage below 100 after 'baseline -' ('baseline - {}%' "
                                   "is zero or negative, so every value would pass)",
                                   number.m_threshold_text),
             "time_ms(^gemm) >= baseline - 20%");
      }
      if (result.m_op == compare_op::equal) {
        fail(sign_pos, "the end after '== baseline': an exact match takes no tolerance; use "
                       "'<= baseline + N%' or '>= baseline - N%'",
             example);
      }
      result.m_threshold = sign * number.m_threshold / 100.0;
    }
    result.m_baseline = baseline_bound{
        result.m_threshold, std::string(trim(m_text.substr(start, m_pos - start)))};
    result.m_threshold_text = result.m_baseline->text;
  }

  std::string_view m_text;
  std::size_t m_pos = 0;
};

}  // namespace detail

check_expression check_expression::parse(std::string_view text) {
  return detail::check_parser(text).parse();
}

}  // namespace aorta
