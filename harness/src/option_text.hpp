// Text helpers shared by the collector option parsers and the recipe loader: the original stores
// every option as a string, so trimming, list splitting, boolean spellings and "did you mean"
// suggestions are needed in one consistent form everywhere.
#pragma once

#include "aorta/recipe.hpp"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace aorta::detail {

[[nodiscard]] std::string to_lower(std::string_view text);
[[nodiscard]] std::string join(const std::vector<std::string>& items,
                               std::string_view separator = ", ");

// Tokens separated by commas and/or whitespace, empties dropped, order kept.
[[nodiscard]] std::vector<std::string> split_list(std::string_view text);

// 1/true/yes/on and 0/false/no/off, case-insensitive, surrounding blanks ignored.
[[nodiscard]] std::optional<bool> parse_bool_text(std::string_view text);

[[nodiscard]] std::size_t edit_distance(std::string_view a, std::string_view b);

// The candidate closest to `word` (case-insensitive edit distance), when it is close enough to be
// a plausible typo; ties go to the earlier candidate.
[[nodiscard]] std::optional<std::string> closest_match(std::string_view word,
                                                       const std::vector<std::string>& candidates);

// " Did you mean 'x'?" or "" when nothing is close.
[[nodiscard]] std::string did_you_mean(std::string_view word,
                                       const std::vector<std::string>& candidates);

// Throws option_error "<collector>: unknown option(s) [..]; valid: [..]" naming the first unknown
// key, so the recipe loader can point at it.
void reject_unknown_options(std::string_view collector, const option_map& options,
                            const std::vector<std::string>& valid_keys);

// Throws option_error "<collector>.<key>: '<value>' is not <what>; allowed: a, b.[ Did you mean
// 'x'?] Fix: <fix>" unless `value` is one of `allowed`.
void require_one_of(std::string_view collector, std::string_view key, std::string_view value,
                    const std::vector<std::string>& allowed, std::string_view what,
                    std::string_view fix);

// Throws option_error "<collector>.<key>: <message>", the form every collector's option errors
// take.
[[noreturn]] void fail_option(std::string_view collector, std::string_view key,
                              const std::string& message);

// Looks up `key`; nullptr when absent.
[[nodiscard]] const option_value* find_option(const option_map& options, std::string_view key);

}  // namespace aorta::detail
