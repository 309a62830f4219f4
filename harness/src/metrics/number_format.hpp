// Number and text formatting shared by the metrics table, check messages and the reports.
#pragma once

#include <string>
#include <string_view>

namespace aorta::detail {

// For people: integral values exactly, others with up to 4 decimals (trailing zeros dropped), and
// 6 significant digits when the magnitude is below 1e-3 or at least 1e15.
[[nodiscard]] std::string format_number(double value);

// For machines: the shortest text that reads back as the same double.
[[nodiscard]] std::string exact_number(double value);

// Escapes & < > " ' for XML and HTML text and attributes.
[[nodiscard]] std::string xml_escape(std::string_view text);

}  // namespace aorta::detail
