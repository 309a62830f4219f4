#include "metrics/display_names.hpp"
#include "metrics/number_format.hpp"
#include "report/report_html_parts.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <numeric>

namespace aorta::detail {
namespace {

constexpr std::size_t bar_limit = 15;
constexpr std::size_t label_chars = 44;
constexpr int label_width = 330;  // px, at 12px monospace about label_chars characters
constexpr int bar_width = 330;
constexpr int value_width = 110;
constexpr int row_height = 20;

// The bar_limit largest bars, largest first, equals in their order: a stable sort's first
// bar_limit without sorting the rest (a trial of 200,000 scopes sorted them all to draw 15).
std::vector<chart_bar> largest_bars(std::vector<chart_bar> bars) {
  if (bars.size() <= bar_limit) {
    std::stable_sort(bars.begin(), bars.end(),
                     [](const chart_bar& a, const chart_bar& b) { return a.value > b.value; });
    return bars;
  }
  std::vector<std::size_t> order(bars.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::partial_sort(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(bar_limit), order.end(),
                    [&bars](std::size_t a, std::size_t b) {
                      if (bars[a].value != bars[b].value) return bars[a].value > bars[b].value;
                      return a < b;
                    });
  std::vector<chart_bar> largest;
  largest.reserve(bar_limit);
  for (std::size_t i = 0; i < bar_limit; ++i) largest.push_back(std::move(bars[order[i]]));
  return largest;
}

}  // namespace

std::string bar_chart_svg(std::vector<chart_bar> bars, const std::string& unit,
                          const std::string& aria_label) {
  if (bars.empty()) return {};
  const std::size_t hidden = bars.size() > bar_limit ? bars.size() - bar_limit : 0;
  bars = largest_bars(std::move(bars));
  const double largest = bars.front().value > 0.0 ? bars.front().value : 1.0;
  const int width = label_width + bar_width + value_width;
  const int height = static_cast<int>(bars.size()) * row_height + 4;
  // viewBox + width 100%: the chart shrinks with the window instead of scrolling sideways.
  std::string svg = fmt::format(
      "<svg class=\"chart\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {} {}\" "
      "style=\"max-width:{}px\" role=\"img\" aria-label=\"{}\">\n",
      width, height, width, xml_escape(aria_label));
  int y = 2;
  for (const auto& bar : bars) {
    const double share = std::max(bar.value, 0.0) / largest;
    const int length = std::max(1, static_cast<int>(share * bar_width + 0.5));
    const std::string value = format_number(bar.value) + (unit.empty() ? "" : " " + unit);
    svg += fmt::format("<g><title>{}: {}</title><text x=\"0\" y=\"{}\">{}</text>"
                       "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" rx=\"2\"/>"
                       "<text x=\"{}\" y=\"{}\">{}</text></g>\n",
                       xml_escape(bar.label), xml_escape(value), y + 13,
                       xml_escape(short_name(bar.label, label_chars)), label_width, y + 2, length,
                       row_height - 6, label_width + length + 6, y + 13, xml_escape(value));
    y += row_height;
  }
  svg += "</svg>\n";
  if (hidden > 0) svg += fmt::format("<p class=\"note\">{} more not drawn.</p>\n", hidden);
  return svg;
}

}  // namespace aorta::detail
