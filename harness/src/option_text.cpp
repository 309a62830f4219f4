#include "option_text.hpp"

#include "aorta/error.hpp"
#include "text_trim.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <limits>

namespace aorta::detail {

namespace {

bool is_blank_char(char c) {
  return std::isspace(static_cast<unsigned char>(c)) != 0;
}

}  // namespace

std::string to_lower(std::string_view text) {
  std::string lowered(text);
  std::transform(lowered.begin(), lowered.end(), lowered.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return lowered;
}

std::string join(const std::vector<std::string>& items, std::string_view separator) {
  std::string joined;
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (i != 0) joined += separator;
    joined += items[i];
  }
  return joined;
}

std::vector<std::string> split_list(std::string_view text) {
  std::vector<std::string> tokens;
  std::string current;
  for (const char c : text) {
    if (c == ',' || is_blank_char(c)) {
      if (!current.empty()) tokens.push_back(std::move(current));
      current.clear();
    } else {
      current += c;
    }
  }
  if (!current.empty()) tokens.push_back(std::move(current));
  return tokens;
}

std::optional<bool> parse_bool_text(std::string_view text) {
  const std::string word = to_lower(trim(text));
  if (word == "1" || word == "true" || word == "yes" || word == "on") return true;
  if (word == "0" || word == "false" || word == "no" || word == "off") return false;
  return std::nullopt;
}

std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> previous(b.size() + 1);
  std::vector<std::size_t> current(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) previous[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    current[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1);
      current[j] = std::min({previous[j] + 1, current[j - 1] + 1, substitution});
    }
    std::swap(previous, current);
  }
  return previous[b.size()];
}

std::optional<std::string> closest_match(std::string_view word,
                                         const std::vector<std::string>& candidates) {
  const std::string needle = to_lower(trim(word));
  if (needle.empty()) return std::nullopt;
  // A third of the word's length, at least two edits: catches transpositions and dropped letters
  // without suggesting unrelated short words.
  const std::size_t tolerance = std::max<std::size_t>(2, needle.size() / 3);
  std::optional<std::string> best;
  std::size_t best_distance = std::numeric_limits<std::size_t>::max();
  for (const auto& candidate : candidates) {
    const std::size_t distance = edit_distance(needle, to_lower(candidate));
    if (distance < best_distance) {
      best_distance = distance;
      best = candidate;
    }
  }
  if (best_distance > tolerance) return std::nullopt;
  return best;
}

std::string did_you_mean(std::string_view word, const std::vector<std::string>& candidates) {
  const auto match = closest_match(word, candidates);
  return match ? fmt::format(" Did you mean '{}'?", *match) : std::string{};
}

void reject_unknown_options(std::string_view collector, const option_map& options,
                            const std::vector<std::string>& valid_keys) {
  std::vector<std::string> unknown;
  for (const auto& [key, value] : options) {
    if (std::find(valid_keys.begin(), valid_keys.end(), key) == valid_keys.end()) {
      unknown.push_back(key);
    }
  }
  if (unknown.empty()) return;
  throw option_error(
      std::string(collector), unknown.front(),
      fmt::format("{}: unknown option(s) [{}]; valid: [{}].{} Fix: rename or remove the option.",
                  collector, join(unknown), join(valid_keys),
                  did_you_mean(unknown.front(), valid_keys)));
}

void require_one_of(std::string_view collector, std::string_view key, std::string_view value,
                    const std::vector<std::string>& allowed, std::string_view what,
                    std::string_view fix) {
  if (std::find(allowed.begin(), allowed.end(), value) != allowed.end()) return;
  throw option_error(std::string(collector), std::string(key),
                     fmt::format("{}.{}: '{}' is not {}; allowed: {}.{} Fix: {}", collector, key,
                                 value, what, join(allowed), did_you_mean(value, allowed), fix));
}

void fail_option(std::string_view collector, std::string_view key, const std::string& message) {
  throw option_error(std::string(collector), std::string(key),
                     fmt::format("{}.{}: {}", collector, key, message));
}

const option_value* find_option(const option_map& options, std::string_view key) {
  const auto it = options.find(key);
  return it == options.end() ? nullptr : &it->second;
}

}  // namespace aorta::detail
