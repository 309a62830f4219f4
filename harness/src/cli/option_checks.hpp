// Validators for option values that CLI11's own conversions would accept wrongly.
#pragma once

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <charconv>
#include <cstdint>
#include <limits>
#include <string>

namespace aorta::cli {

// --seed: decimal digits from 0 to 2^64 - 1. CLI11 reads an unsigned option with strtoull, which
// takes "-1" as 2^64 - 1 and saturates a larger number to it, so a seed typed by hand would
// silently become another one and the recorded order would not be the one asked for.
inline CLI::Validator seed_check() {
  return CLI::Validator(
      [](std::string& text) -> std::string {
        std::uint64_t value = 0;
        const char* end = text.data() + text.size();
        const auto [stop, error] = std::from_chars(text.data(), end, value);
        if (!text.empty() && error == std::errc{} && stop == end) return {};
        return fmt::format("'{}' is not a seed: give a whole number from 0 to {}", text,
                           std::numeric_limits<std::uint64_t>::max());
      },
      "", "seed");  // no description: the help line stays "--seed UINT"
}

// A value that names something (a cell): an empty one would otherwise read as "not given".
inline CLI::Validator nonempty_check(std::string what) {
  return CLI::Validator(
      [what](std::string& text) -> std::string {
        if (!text.empty()) return {};
        return fmt::format("is empty: give {}", what);
      },
      "", "nonempty");  // no description: the help line stays as it was
}

// --ambiguous (sweep run, ab, compare): one of the policies a gate line's `ambiguous` item and a
// recipe's confound.ambiguous take.
inline constexpr const char* ambiguous_help =
    "What a gate row, or a confound row whose verdicts fail the run, still AMBIGUOUS at the end "
    "does: fail (exit 1), skip (exit 77) or pass, rows named (replaces the gate's 'ambiguous' "
    "item and confound.ambiguous; default: fail)";

inline CLI::Validator ambiguous_check() {
  return CLI::Validator(
      [](std::string& text) -> std::string {
        if (text == "fail" || text == "skip" || text == "pass") return {};
        return fmt::format("'{}' is not a policy: give fail, skip or pass", text);
      },
      "", "ambiguous");
}

}  // namespace aorta::cli
