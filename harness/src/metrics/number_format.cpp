#include "metrics/number_format.hpp"

#include <fmt/format.h>

#include <cmath>
#include <cstdint>

namespace aorta::detail {

std::string format_number(double value) {
  if (!std::isfinite(value)) return fmt::format("{}", value);
  const double magnitude = std::fabs(value);
  if (magnitude < 1e15 && value == std::trunc(value)) {
    // A whole number below 2^53 is an int64 exactly, whose digits are "{:.0f}"'s: printed so,
    // without fmt's arbitrary-precision path (most of a 200,000-metric table's time).
    if (value == 0.0 && std::signbit(value)) return "-0";
    return std::to_string(static_cast<std::int64_t>(value));
  }
  if (magnitude < 1e-3 || magnitude >= 1e15) return fmt::format("{:.6g}", value);
  std::string text = fmt::format("{:.4f}", value);
  while (text.back() == '0') text.pop_back();
  if (text.back() == '.') text.pop_back();
  return text;
}

std::string exact_number(double value) {
  return fmt::format("{}", value);
}

std::string xml_escape(std::string_view text) {
  // Runs without a special character are appended whole, not a character at a time: the HTML
  // report escapes every metric name twice, most of them plain.
  std::string escaped;
  escaped.reserve(text.size());
  std::size_t run = 0;  // where the characters not yet appended start
  for (std::size_t i = 0; i < text.size(); ++i) {
    std::string_view entity;
    switch (text[i]) {
    case '&': entity = "&amp;"; break;
    case '<': entity = "&lt;"; break;
    case '>': entity = "&gt;"; break;
    case '"': entity = "&quot;"; break;
    case '\'': entity = "&apos;"; break;
    default: continue;
    }
    escaped.append(text.substr(run, i - run));
    escaped.append(entity);
    run = i + 1;
  }
  escaped.append(text.substr(run));
  return escaped;
}

}  // namespace aorta::detail
