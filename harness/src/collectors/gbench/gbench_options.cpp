// gbench option schema: every value arrives as text, like the other collectors.
#include "collectors/gbench/gbench_options.hpp"

#include "option_text.hpp"
#include "text_trim.hpp"

#include <fmt/format.h>

#include <charconv>

namespace aorta {

namespace {

constexpr std::string_view gbench_name = "gbench";

std::uint64_t parse_repetitions(const std::string& text) {
  const std::string digits{detail::trim(text)};
  std::uint64_t value = 0;
  const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
  if (digits.empty() || error != std::errc{} || end != digits.data() + digits.size() ||
      value == 0 || value > max_gbench_repetitions) {
    throw option_error(
        std::string(gbench_name), "repetitions",
        fmt::format("gbench.repetitions: expected a whole number from 1 to {}, got '{}'. Fix: "
                    "e.g. repetitions: 9 (Google Benchmark's --benchmark_repetitions; each "
                    "repetition reruns every benchmark and aorta takes their median).",
                    max_gbench_repetitions, text));
  }
  return value;
}

}  // namespace

gbench_options parse_gbench_options(const option_map& options) {
  detail::reject_unknown_options(gbench_name, options, {"repetitions"});
  gbench_options parsed;
  if (const auto* repetitions = detail::find_option(options, "repetitions")) {
    parsed.repetitions = parse_repetitions(repetitions->text);
  }
  return parsed;
}

}  // namespace aorta
