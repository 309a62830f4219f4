#include "captures/ncu_counters.hpp"

#include "aorta/error.hpp"
#include "captures/csv_kernel_table.hpp"

#include <fmt/format.h>

#include <cmath>

namespace aorta::detail {

std::optional<double> parse_ncu_number(std::string_view text) {
  const std::size_t last_comma = text.rfind(',');
  const std::size_t last_dot = text.rfind('.');
  const bool european = last_comma != std::string_view::npos &&
                        last_dot != std::string_view::npos && last_comma > last_dot;
  std::string plain;
  plain.reserve(text.size());
  for (char c : text) {
    if (european) {
      if (c == '.') continue;
      plain.push_back(c == ',' ? '.' : c);
    } else if (c != ',') {
      plain.push_back(c);
    }
  }
  return parse_double(plain);
}

void ncu_counter_table::add(std::string_view kernel, std::string_view metric, std::string_view unit,
                            std::string_view value, const std::filesystem::path& file,
                            std::size_t row) {
  if (kernel.empty() || kernel.size() > max_kernel_name_bytes) return;
  auto of_kernel = m_sums.find(kernel);
  if (of_kernel == m_sums.end())
    of_kernel =
        m_sums.emplace(std::string(kernel), std::map<std::string, sum, std::less<>>{}).first;
  auto found = of_kernel->second.find(metric);
  if (found == of_kernel->second.end()) {
    if (m_pairs >= max_ncu_counters) {
      throw capture_error(fmt::format(
          "{}: more than {} (kernel, metric) pairs (max_ncu_counters), aorta's limit on the "
          "counters of one capture; the file is damaged, or collect.ncu.metrics and kernel_name "
          "ask for far more than a gate needs: name fewer metrics or kernels",
          file.string(), max_ncu_counters));
    }
    ++m_pairs;
    sum first;
    first.unit = std::string(unit);
    found = of_kernel->second.emplace(std::string(metric), std::move(first)).first;
  }
  const std::optional<double> number = parse_ncu_number(value);
  // Counted before a dropped counter returns: one n/a launch must not hide the others' numbers.
  auto seen = m_metrics.find(metric);
  if (seen == m_metrics.end()) seen = m_metrics.emplace(std::string(metric), metric_seen{}).first;
  if (number) {
    ++seen->second.numbers;
  } else if (!seen->second.first_na) {
    seen->second.first_na = fmt::format("{} row {}", file.string(), row);
  }
  sum& total = found->second;
  if (total.dropped) return;
  const auto drop = [&](const std::string& why) {
    total.dropped =
        fmt::format("{} row {}: {} of kernel '{}' {}", file.string(), row, metric, kernel, why);
  };
  if (!number) return drop(fmt::format("is '{}', not a number", value));
  if (!std::isfinite(*number) || *number < 0.0) {
    return drop(fmt::format("is {}, not a finite non-negative count", value));
  }
  if (unit != total.unit) {
    return drop(fmt::format("is in '{}' where an earlier launch was in '{}'", unit, total.unit));
  }
  const double next = total.value + *number;
  if (!std::isfinite(next)) return drop("sums past the largest finite number");
  total.value = next;
}

void ncu_counter_table::finish(capture& out) const {
  for (const auto& [metric, seen] : m_metrics) {
    if (seen.numbers > 0 || !seen.first_na) continue;
    throw capture_error(fmt::format(
        "{}: ncu gave no value of {} for any launch (n/a from the first, {}): this GPU does not "
        "have that metric, and ncu does not say so otherwise. Fix: correct or remove it in "
        "collect.ncu.metrics; `ncu --query-metrics` lists the GPU's metrics",
        out.artifact_dir.string(), metric, *seen.first_na));
  }
  for (const auto& [kernel, metrics] : m_sums) {
    for (const auto& [metric, total] : metrics) {
      if (total.dropped) {
        out.notes.push_back(fmt::format(
            "{}; the counter is left out of the capture, so a check or gate row on it is not "
            "measured (fails) rather than summed without that launch",
            *total.dropped));
        continue;
      }
      out.counters.push_back(kernel_counter{kernel, metric, total.unit, total.value});
    }
  }
}

}  // namespace aorta::detail
