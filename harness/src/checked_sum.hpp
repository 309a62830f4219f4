// The one rule for every count, sum and duration a reader takes from input (docs/guards.md,
// "Limits on hostile input"): a value that overflows, is negative, NaN or infinite, or a sum that
// would become one, is a capture_error naming the file (or source) and the field. Never a wrap,
// a clamp or a silent zero: a count of 2^64-1 once became kernel_count -1 and passed `< 100`.
#pragma once

#include <cstdint>
#include <limits>
#include <string_view>
#include <vector>

namespace aorta::detail {

// Counts become int64 metrics, so the largest count any reader accepts is int64's largest.
inline constexpr std::uint64_t max_count =
    static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());

// `value` when it is at most max_count; else throws capture_error "<where>: <field>: ...".
std::uint64_t checked_count(std::uint64_t value, std::string_view where, std::string_view field);

// total + more, both counts; throws capture_error when the sum passes max_count.
std::uint64_t add_count(std::uint64_t total, std::uint64_t more, std::string_view where,
                        std::string_view field);

// `value` when it is finite and not negative; else throws capture_error naming the value.
double checked_duration(double value, std::string_view where, std::string_view field);

// total + more, durations; throws capture_error when `more` is negative or not finite, or the
// sum is not finite (1e306 µs in ns is +inf).
double add_duration(double total, double more, std::string_view where, std::string_view field);

// The median of finite `values` (at least one; counters may be negative); throws capture_error
// when the midpoint of the two middle values is not finite (two repetitions near 1.6e308 ns sum
// to +inf), never a silent inf.
double checked_median(std::vector<double> values, std::string_view where, std::string_view field);

}  // namespace aorta::detail
