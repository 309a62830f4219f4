#include "history/iso_time.hpp"

#include <fmt/format.h>

namespace aorta::detail {
namespace {

// Days from 1970-01-01 to y-m-d in the proleptic Gregorian calendar (Howard Hinnant's
// days_from_civil), so no time-zone database or mktime's local zone is involved.
std::int64_t days_from_civil(std::int64_t y, unsigned m, unsigned d) {
  y -= m <= 2 ? 1 : 0;
  const std::int64_t era = (y >= 0 ? y : y - 399) / 400;
  const auto yoe = static_cast<unsigned>(y - era * 400);
  const unsigned doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
  const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + static_cast<std::int64_t>(doe) - 719468;
}

bool leap(int year) {
  return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
}

int days_in_month(int year, int month) {
  constexpr int days[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  return month == 2 && leap(year) ? 29 : days[month - 1];
}

// Exactly `width` digits at text[at...]; advances `at`.
std::optional<int> digits(std::string_view text, std::size_t& at, std::size_t width) {
  if (at + width > text.size()) return std::nullopt;
  int value = 0;
  for (std::size_t i = 0; i < width; ++i) {
    const char c = text[at + i];
    if (c < '0' || c > '9') return std::nullopt;
    value = value * 10 + (c - '0');
  }
  at += width;
  return value;
}

bool expect(std::string_view text, std::size_t& at, char c) {
  if (at >= text.size() || text[at] != c) return false;
  ++at;
  return true;
}

// The zone's offset east of UTC in seconds: "Z", "", "+HH:MM", "+HHMM", "+HH".
std::optional<int> zone_offset(std::string_view zone) {
  if (zone.empty() || zone == "Z" || zone == "z") return 0;
  if (zone[0] != '+' && zone[0] != '-') return std::nullopt;
  std::size_t at = 1;
  const auto hours = digits(zone, at, 2);
  if (!hours || *hours > 23) return std::nullopt;
  int minutes = 0;
  if (at < zone.size()) {
    if (zone[at] == ':') ++at;
    const auto parsed = digits(zone, at, 2);
    if (!parsed || *parsed > 59 || at != zone.size()) return std::nullopt;
    minutes = *parsed;
  }
  const int offset = (*hours * 60 + minutes) * 60;
  return zone[0] == '-' ? -offset : offset;
}

}  // namespace

std::optional<utc_time> parse_iso_time(std::string_view text) {
  std::size_t at = 0;
  const auto year = digits(text, at, 4);
  if (!year || !expect(text, at, '-')) return std::nullopt;
  const auto month = digits(text, at, 2);
  if (!month || *month < 1 || *month > 12 || !expect(text, at, '-')) return std::nullopt;
  const auto day = digits(text, at, 2);
  if (!day || *day < 1 || *day > days_in_month(*year, *month)) return std::nullopt;
  int hour = 0, minute = 0, second = 0;
  if (at < text.size()) {
    if (text[at] != 'T' && text[at] != 't' && text[at] != ' ') return std::nullopt;
    ++at;
    const auto h = digits(text, at, 2);
    if (!h || *h > 23 || !expect(text, at, ':')) return std::nullopt;
    const auto m = digits(text, at, 2);
    if (!m || *m > 59 || !expect(text, at, ':')) return std::nullopt;
    const auto s = digits(text, at, 2);
    if (!s || *s > 60) return std::nullopt;  // a leap second is a valid time
    hour = *h, minute = *m, second = *s;
    if (at < text.size() && (text[at] == '.' || text[at] == ',')) {
      ++at;
      const std::size_t first = at;
      while (at < text.size() && text[at] >= '0' && text[at] <= '9') ++at;
      if (at == first) return std::nullopt;
    }
  }
  const auto offset = zone_offset(text.substr(at));
  if (!offset) return std::nullopt;
  const std::int64_t seconds =
      days_from_civil(*year, static_cast<unsigned>(*month), static_cast<unsigned>(*day)) * 86400 +
      hour * 3600 + minute * 60 + second - *offset;
  return utc_time{seconds, format_utc(seconds)};
}

std::string format_utc(std::int64_t unix_seconds) {
  // civil_from_days, the inverse of days_from_civil above.
  std::int64_t days = unix_seconds / 86400;
  std::int64_t rest = unix_seconds % 86400;
  if (rest < 0) rest += 86400, --days;
  const std::int64_t z = days + 719468;
  const std::int64_t era = (z >= 0 ? z : z - 146096) / 146097;
  const auto doe = static_cast<unsigned>(z - era * 146097);
  const unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  const unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const unsigned mp = (5 * doy + 2) / 153;
  const unsigned d = doy - (153 * mp + 2) / 5 + 1;
  const unsigned m = mp < 10 ? mp + 3 : mp - 9;
  const std::int64_t y = static_cast<std::int64_t>(yoe) + era * 400 + (m <= 2 ? 1 : 0);
  return fmt::format("{:04}-{:02}-{:02}T{:02}:{:02}:{:02}Z", y, m, d, rest / 3600, rest / 60 % 60,
                     rest % 60);
}

}  // namespace aorta::detail
