// Per-kernel sums of the extra metrics an ncu CSV holds (the collector's `metrics:`), kept apart
// from kernel time so one unreadable counter never costs the times.
#pragma once

#include "aorta/capture.hpp"

#include <cstddef>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>

namespace aorta::detail {

// Most (kernel, metric) pairs one capture keeps: a real profile has tens of kernels and a few
// metrics; millions of pairs would be a damaged or hostile file growing memory.
inline constexpr std::size_t max_ncu_counters = 100000;

// A metric value as ncu prints it: "1,215,000.00" (thousands separators), or from a European
// locale "1.215.000,00" (told apart by a comma after the last dot); nullopt for text ("n/a").
[[nodiscard]] std::optional<double> parse_ncu_number(std::string_view text);

class ncu_counter_table {
public:
  // One launch's value of `metric` for `kernel`, at `row` of `file`. A value that is not a finite,
  // non-negative number ("n/a", text, -1, 1e999), or a unit unlike the one of the counter's
  // earlier launches, drops that kernel's counter for good with a note naming file, row and
  // metric: a sum missing a launch would read as less work. Throws capture_error past
  // max_ncu_counters pairs.
  void add(std::string_view kernel, std::string_view metric, std::string_view unit,
           std::string_view value, const std::filesystem::path& file, std::size_t row);

  // The kept counters (sorted by kernel, then metric) into out.counters, and a note per dropped
  // one into out.notes. Throws capture_error naming the metric and collect.ncu.metrics when a
  // metric was n/a for every launch and a number for none: ncu 2025.3.1 answers a metric the
  // GPU does not have that way (no error, exit 0), so it would otherwise pass unseen.
  void finish(capture& out) const;

private:
  struct sum {
    std::string unit;
    double value = 0.0;
    std::optional<std::string> dropped;  // why, with file and row
  };
  // kernel -> metric -> sum
  std::map<std::string, std::map<std::string, sum, std::less<>>, std::less<>> m_sums;
  std::size_t m_pairs = 0;
  struct metric_seen {
    std::size_t numbers = 0;
    std::optional<std::string> first_na;  // "file row N"
  };
  std::map<std::string, metric_seen, std::less<>> m_metrics;
};

}  // namespace aorta::detail
