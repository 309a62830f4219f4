// ISO 8601 times as `aorta history add --time` and git's `%cI` write them, turned into one UTC
// form so commits made in different time zones sort by when they were made.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace aorta::detail {

struct utc_time {
  std::int64_t unix_seconds = 0;
  std::string text;  // "2026-12-06T05:00:00Z"
};

// "YYYY-MM-DDTHH:MM:SS" with optional fractional seconds and a zone (`Z`, `+HH:MM`, `-HHMM`;
// none means UTC), or a bare date "YYYY-MM-DD" (midnight UTC). nullopt for anything else or an
// impossible date.
[[nodiscard]] std::optional<utc_time> parse_iso_time(std::string_view text);

// `unix_seconds` as "YYYY-MM-DDTHH:MM:SSZ".
[[nodiscard]] std::string format_utc(std::int64_t unix_seconds);

}  // namespace aorta::detail
