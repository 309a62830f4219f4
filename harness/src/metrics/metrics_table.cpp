#include "aorta/metrics.hpp"

#include "metrics/number_format.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace aorta {
namespace {

std::string launches_text(const std::optional<std::uint64_t>& launches) {
  return launches ? std::to_string(*launches) : std::string("unknown");
}

}  // namespace

std::string format_metrics_table(const metric_set& metrics) {
  std::string out;
  if (metrics.values.empty()) {
    out += "no metrics\n";
  } else {
    std::size_t name_width = 0;
    for (const auto& [name, value] : metrics.values) name_width = std::max(name_width, name.size());
    for (const auto& [name, value] : metrics.values) {
      out += fmt::format("{:<{}}  {}\n", name, name_width, format_metric_value(value));
    }
  }

  if (!metrics.kernels.empty()) {
    const std::string name_header = "kernel";
    const std::string launches_header = "launches";
    const std::string time_header = "total ms";
    std::size_t name_width = name_header.size();
    std::size_t launches_width = launches_header.size();
    std::size_t time_width = time_header.size();
    for (const auto& row : metrics.kernels) {
      name_width = std::max(name_width, row.name.size());
      launches_width = std::max(launches_width, launches_text(row.launches).size());
      time_width = std::max(time_width, detail::format_number(row.total_ms).size());
    }
    out += fmt::format("\n{:<{}}  {:>{}}  {:>{}}\n", name_header, name_width, launches_header,
                       launches_width, time_header, time_width);
    for (const auto& row : metrics.kernels) {
      out +=
          fmt::format("{:<{}}  {:>{}}  {:>{}}\n", row.name, name_width, launches_text(row.launches),
                      launches_width, detail::format_number(row.total_ms), time_width);
    }
  }

  if (!metrics.notes.empty()) {
    out += "\n";
    for (const auto& note : metrics.notes) out += fmt::format("note: {}\n", note);
  }
  return out;
}

}  // namespace aorta
