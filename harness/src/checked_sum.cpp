#include "checked_sum.hpp"

#include "aorta/error.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

namespace aorta::detail {
namespace {

[[noreturn]] void refuse_sum(std::string_view where, std::string_view field, std::string_view why) {
  throw capture_error(fmt::format("{}: {}: {}; no profiler writes that, so the file is damaged or "
                                  "hostile and its numbers cannot be trusted. Fix: re-run the "
                                  "capture",
                                  where, field, why));
}

}  // namespace

std::uint64_t checked_count(std::uint64_t value, std::string_view where, std::string_view field) {
  if (value > max_count)
    refuse_sum(
        where, field,
        fmt::format("count {} is larger than {} (max_count, the largest count a metric holds)",
                    value, max_count));
  return value;
}

std::uint64_t add_count(std::uint64_t total, std::uint64_t more, std::string_view where,
                        std::string_view field) {
  checked_count(more, where, field);
  if (total > max_count - more)
    refuse_sum(where, field,
               fmt::format("the sum of counts passes {} (max_count, the largest count a metric "
                           "holds)",
                           max_count));
  return total + more;
}

double checked_duration(double value, std::string_view where, std::string_view field) {
  if (!std::isfinite(value) || value < 0.0)
    refuse_sum(where, field,
               fmt::format("duration {} is {}", value,
                           std::isfinite(value) ? "negative" : "not a finite number"));
  return value;
}

double add_duration(double total, double more, std::string_view where, std::string_view field) {
  checked_duration(more, where, field);
  const double sum = total + more;
  if (!std::isfinite(sum))
    refuse_sum(where, field, fmt::format("the summed duration {} + {} is not finite", total, more));
  return sum;
}

double checked_median(std::vector<double> values, std::string_view where, std::string_view field) {
  if (values.empty()) refuse_sum(where, field, "no value to take the median of");
  for (const double value : values) {
    if (!std::isfinite(value))
      refuse_sum(where, field, fmt::format("value {} is not finite", value));
  }
  std::sort(values.begin(), values.end());
  const std::size_t middle = values.size() / 2;
  if (values.size() % 2 == 1) return values[middle];
  const double sum = values[middle - 1] + values[middle];
  if (!std::isfinite(sum))
    refuse_sum(where, field,
               fmt::format("the median of {} values is not finite ({} + {} overflows)",
                           values.size(), values[middle - 1], values[middle]));
  return sum / 2.0;
}

}  // namespace aorta::detail
