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
  std::string escaped;
  escaped.reserve(text.size());
  for (const char c : text) {
    switch (c) {
    case '&': escaped += "&amp;"; break;
    case '<': escaped += "&lt;"; break;
    case '>': escaped += "&gt;"; break;
    case '"': escaped += "&quot;"; break;
    case '\'': escaped += "&apos;"; break;
    default: escaped += c;
    }
  }
  return escaped;
}

}  // namespace aorta::detail
