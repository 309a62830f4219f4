#include "aorta/check.hpp"
#include "aorta/error.hpp"
#include "checks/check_bounds.hpp"
#include "checks/check_forms.hpp"
#include "checks/ncu_checks.hpp"
#include "checks/pc_sample_checks.hpp"
#include "checks/scope_checks.hpp"
#include "metrics/quantity_table.hpp"
#include "text_trim.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <type_traits>

namespace aorta {
namespace detail {

namespace {

constexpr std::string_view metric_example = "proton_kernel_count >= 60";
constexpr std::string_view top_kernel_example = "top_kernel ~ ^sgemm";
constexpr std::string_view any_example = "count(add_kernel) == 20";
constexpr std::string_view rank_example = "imbalance(time_ms(^gemm)) < 1.2";
constexpr std::string_view cell_example = "time_ms(gemm)@head / time_ms(gemm)@base <= 1.05";

bool is_digit(char c) {
  return c >= '0' && c <= '9';
}
bool is_name_start(char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_';
}
bool is_name_char(char c) {
  return is_name_start(c) || is_digit(c) || c == '.' || c == '/' || c == ':' || c == '-';
}
// A cell is `<mitigation>[+<mitigation>...][.<diagnostic>]` (docs/recipes.md, 'Cells').
bool is_cell_char(char c) {
  return is_name_start(c) || is_digit(c) || c == '-' || c == '+' || c == '.';
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
        if (!scoped(argument, scope_pos, top_kernel_form, top_kernel_example, result.m_scope,
                    unused))
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
      result.m_quantity = plain_metric_form;
      result.m_argument = std::string(name);
      if (peek() == '?') {
        fail(m_pos,
             "an operator after the metric name: '?' (absent reads 0) follows a function "
             "term such as time_ms(A)?; a metric that was not measured always fails",
             "time_ms(fallback_kernel)? < 1");
      }
      result.m_cell = read_cell();
    }
    if (result.m_cell && result.m_over_ranks != rank_reduction::none) {
      fail(name_start, fmt::format("no @cell inside {}(...): a cell-addressed check takes the "
                                   "median over the cell's trials, not a reduction over ranks",
                                   to_string(result.m_over_ranks)),
           cell_example);
    }
    if (result.m_cell) refuse_uncellable(result, name_start);
    skip_spaces();
    result.m_op = with_cursor([&](check_cursor& at) { return read_op(at, example); });
    skip_spaces();
    if (m_text.substr(m_pos).starts_with("baseline")) {
      if (result.m_cell) {
        fail(m_pos, "a number after a cell-addressed term: cells are compared with each other "
                    "in one run, not with a recorded baseline",
             cell_example);
      }
      const baseline_bound bound = with_cursor([&](check_cursor& at) {
        return read_baseline_bound(at, result.m_quantity, result.m_op, result.m_over_ranks);
      });
      result.m_threshold = bound.fraction;
      result.m_threshold_text = bound.text;
      result.m_baseline = bound;
    } else {
      const number_token number =
          with_cursor([&](check_cursor& at) { return read_number(at, example); });
      result.m_threshold = number.value;
      result.m_threshold_text = number.text;
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
    while (!at_end() && is_check_space(m_text[m_pos])) ++m_pos;
  }

  std::string_view read_name() {
    const std::size_t start = m_pos;
    if (at_end() || !is_name_start(m_text[m_pos])) return {};
    while (!at_end() && is_name_char(m_text[m_pos])) ++m_pos;
    return m_text.substr(start, m_pos - start);
  }

  [[noreturn]] void fail(std::size_t pos, std::string_view expected,
                         std::string_view example) const {
    check_cursor{m_text, m_pos}.fail(pos, expected, example);
  }

  // Runs a step of check_bounds.hpp from the current position and moves past what it read.
  template <typename Step>
  std::invoke_result_t<Step, check_cursor&> with_cursor(Step step) {
    check_cursor cursor{m_text, m_pos};
    auto value = step(cursor);
    m_pos = cursor.pos;
    return value;
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

  static bool counts_pc_samples(check_quantity quantity) {
    return declaration_of(quantity).source == value_source::pc_samples;
  }

  // ncu(METRIC, REGEX): the argument names a counter before the kernel regex.
  static bool names_a_counter(check_quantity quantity) {
    return declaration_of(quantity).source == value_source::counters;
  }

  // Both terms count the same thing: one function, or PC samples (samples( and stalls().
  static bool may_share_ratio(check_quantity numerator, check_quantity denominator) {
    return numerator == denominator ||
           (counts_pc_samples(numerator) && counts_pc_samples(denominator));
  }

  void parse_call(const function_form& form, check_expression& result) {
    result.m_quantity = form.quantity;
    result.m_denominator_quantity = form.quantity;
    const std::size_t argument_pos = m_pos + 1;
    result.m_argument = std::string(read_argument(form.name, form.example));
    if (!scoped(result.m_argument, argument_pos, form.quantity, form.example, result.m_scope,
                result.m_pattern) &&
        form.takes_regex)
      result.m_pattern = compile(result.m_argument, argument_pos, form.example);
    if (names_a_counter(form.quantity))
      result.m_pattern = ncu_kernels(result.m_argument, argument_pos, form.example);
    check_pc_sample_argument(form, result.m_argument, argument_pos);
    result.m_absent_reads_zero = read_absent_marker();
    result.m_cell = read_cell();
    skip_spaces();
    if (peek() != '/') return;
    ++m_pos;
    skip_spaces();
    const std::size_t denominator_start = m_pos;
    const std::string_view denominator_name = read_name();
    skip_spaces();
    const function_form* denominator_form = find_form(denominator_name);
    if (denominator_form == nullptr || peek() != '(' ||
        !may_share_ratio(form.quantity, denominator_form->quantity)) {
      fail(denominator_start,
           fmt::format("{}( as the denominator: both sides of a ratio use the "
                       "same function{}",
                       form.name, counts_pc_samples(form.quantity)
                                      ? " (samples( and stalls( may share one)"
                                      : ""),
           form.example);
    }
    result.m_denominator_quantity = denominator_form->quantity;
    const std::size_t denominator_pos = m_pos + 1;
    result.m_denominator = std::string(read_argument(denominator_form->name, form.example));
    if (!scoped(*result.m_denominator, denominator_pos, form.quantity, form.example,
                result.m_denominator_scope, result.m_denominator_pattern) &&
        form.takes_regex) {
      result.m_denominator_pattern = compile(*result.m_denominator, denominator_pos, form.example);
    }
    if (names_a_counter(form.quantity))
      result.m_denominator_pattern = ncu_kernels(*result.m_denominator, denominator_pos, form.example);
    check_pc_sample_argument(*denominator_form, *result.m_denominator, denominator_pos);
    result.m_denominator_absent_reads_zero = read_absent_marker();
    result.m_denominator_cell = read_cell();
    // Mixed, a bare term would mean "this trial" next to a cell's median over its trials.
    if (result.m_cell.has_value() != result.m_denominator_cell.has_value()) {
      fail(result.m_cell ? m_pos : denominator_start,
           "'@CELL' after both terms of a ratio or after neither: a cell-addressed check "
           "compares cells, so every term names its cell",
           cell_example);
    }
  }

  // A cell's term is measured from its trials' result.json (as the regression gate does), which
  // holds no call counts, checker findings, frame tree or PC samples.
  void refuse_uncellable(const check_expression& result, std::size_t pos) const {
    const check_quantity quantity = result.m_quantity;
    if (!kept_in_baseline(quantity) || result.m_scope || result.m_denominator_scope) {
      fail(pos, fmt::format("a METRIC, count(, time_ms(, cycles(, normalized_cycles(, ir(, "
                            "self_ir( or ncu( before '@': {} cannot be addressed to a cell yet",
                            result.m_scope || result.m_denominator_scope
                                ? std::string("under(...)")
                                : std::string(to_string(quantity)) + "()"),
           cell_example);
    }
  }

  // `?` right after a term's ')': its selector may match nothing and then reads 0.
  bool read_absent_marker() {
    if (peek() != '?') return false;
    ++m_pos;
    return true;
  }

  // `@cell` after a term, or nothing.
  std::optional<std::string> read_cell() {
    const std::size_t at = m_pos;
    skip_spaces();
    if (peek() != '@') {
      m_pos = at;
      return std::nullopt;
    }
    ++m_pos;
    const std::size_t start = m_pos;
    while (!at_end() && is_cell_char(m_text[m_pos])) ++m_pos;
    if (m_pos == start) fail(start, "a cell name after '@'", cell_example);
    return std::string(m_text.substr(start, m_pos - start));
  }

  // The parts of samples(...) and stalls(...) split and compiled here, so a bad one is a usage
  // error naming its column rather than a failed check after the run.
  void check_pc_sample_argument(const function_form& form, std::string_view argument,
                                std::size_t pos) const {
    if (!counts_pc_samples(form.quantity)) return;
    try {
      require_pc_sample_argument(form.quantity, argument);
    } catch (const std::invalid_argument& error) {
      fail(pos, error.what(), form.example);
    }
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
      if (declaration_of(quantity).source != value_source::kernels)
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
    static constexpr std::array<std::pair<std::string_view, rank_reduction>, 4> reductions{{
        {"max_over_ranks", rank_reduction::max},
        {"min_over_ranks", rank_reduction::min},
        {"imbalance", rank_reduction::imbalance},
        {"straggler", rank_reduction::straggler},
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
    result.m_quantity = top_kernel_form;
    result.m_argument = std::string(pattern);
    result.m_pattern = compile(pattern, m_pos, top_kernel_example);
  }

  std::string_view m_text;
  std::size_t m_pos = 0;
};

}  // namespace detail

check_expression check_expression::parse(std::string_view text) {
  return detail::check_parser(text).parse();
}

check_expression check_expression::term(bool denominator) const {
  check_expression side = *this;
  if (denominator && m_denominator) {
    side.m_argument = *m_denominator;
    side.m_pattern = m_denominator_pattern;
    side.m_scope = m_denominator_scope;
    side.m_quantity = m_denominator_quantity;
  }
  if (denominator && m_denominator) side.m_absent_reads_zero = m_denominator_absent_reads_zero;
  side.m_denominator_absent_reads_zero = false;
  side.m_denominator.reset();
  side.m_denominator_pattern.reset();
  side.m_denominator_scope.reset();
  side.m_cell.reset();
  side.m_denominator_cell.reset();
  side.m_baseline.reset();
  return side;
}

}  // namespace aorta
