#include "report/report_pc_samples.hpp"

#include "metrics/display_names.hpp"
#include "metrics/number_format.hpp"
#include "metrics/pc_sample_metrics.hpp"
#include "report/report_html_parts.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <map>
#include <vector>

namespace aorta::detail {
namespace {

// Colour-blind-safe (Okabe-Ito) for the reasons with the most stalls in a kernel; the rest of a
// line (other reasons, and samples that did not stall) is grey.
constexpr std::array<std::string_view, 7> reason_colours{"#0072b2", "#e69f00", "#009e73", "#cc79a7",
                                                         "#d55e00", "#56b4e9", "#f0e442"};
constexpr std::string_view rest_colour = "#bbbbbb";
constexpr std::size_t pc_label_chars = 36;
constexpr int pc_label_width = 280;
constexpr int pc_bar_width = 420;
constexpr int pc_value_width = 70;
constexpr int pc_row_height = 20;

struct line_bar {
  const std::string* location;
  double samples;
  const std::map<std::string, double>* stalls;  // nullptr: none recorded
};

// The kernel's reasons by their stalls, largest first: the order of the colours.
std::vector<std::string> coloured_reasons(const pc_kernel_record& kernel) {
  std::vector<std::pair<double, std::string>> ranked;
  for (const auto& [reason, count] : kernel.reasons) ranked.emplace_back(-count, reason);
  std::sort(ranked.begin(), ranked.end());
  std::vector<std::string> out;
  for (std::size_t i = 0; i < ranked.size() && i < reason_colours.size(); ++i)
    out.push_back(ranked[i].second);
  return out;
}

std::string kernel_chart(const std::string& kernel, const pc_kernel_record& record) {
  std::vector<line_bar> bars;
  for (const auto& [location, samples] : record.lines) {
    const auto stalls = record.line_stalls.find(location);
    bars.push_back(
        {&location, samples, stalls == record.line_stalls.end() ? nullptr : &stalls->second});
  }
  std::stable_sort(bars.begin(), bars.end(),
                   [](const line_bar& a, const line_bar& b) { return a.samples > b.samples; });
  const std::vector<std::string> reasons = coloured_reasons(record);
  std::string html =
      fmt::format("<h4>PC samples per line of <code>{}</code> ({} samples; bar: "
                  "the line's share, coloured by stall reason)</h4>\n<p class=\"note\">",
                  xml_escape(short_name(kernel, 80)), fmt::format("{:.0f}", record.samples));
  for (std::size_t i = 0; i < reasons.size(); ++i)
    html += fmt::format("<span style=\"color:{}\">&#9632;</span> {} ", reason_colours[i],
                        xml_escape(reasons[i]));
  html += fmt::format("<span style=\"color:{}\">&#9632;</span> other reasons or not stalled</p>\n",
                      rest_colour);
  const int width = pc_label_width + pc_bar_width + pc_value_width;
  const int height = static_cast<int>(bars.size()) * pc_row_height + 4;
  html += fmt::format("<svg class=\"chart\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {} "
                      "{}\" style=\"max-width:{}px\" role=\"img\" aria-label=\"PC sample share "
                      "per line of {}\">\n",
                      width, height, width, xml_escape(kernel));
  // The hottest line spans the bar's width, as in the other charts; the text gives the share.
  const double longest = bars.empty() || bars.front().samples <= 0 ? 1.0 : bars.front().samples;
  int y = 2;
  for (const line_bar& bar : bars) {
    const double whole = record.samples > 0 ? record.samples : 1.0;
    const double share = std::clamp(bar.samples / whole, 0.0, 1.0);
    html += fmt::format("<g><title>{}: {:.0f} samples, {:.1f}%</title><text x=\"0\" y=\"{}\">{}"
                        "</text>",
                        xml_escape(*bar.location), bar.samples, 100.0 * share, y + 13,
                        xml_escape(short_name(*bar.location, pc_label_chars)));
    double x = pc_label_width;
    double left = bar.samples;
    const auto segment = [&](double count, std::string_view colour, const std::string& what) {
      const double length = std::max(0.0, count) / longest * pc_bar_width;
      if (length <= 0) return;
      html += fmt::format("<rect x=\"{:.1f}\" y=\"{}\" width=\"{:.1f}\" height=\"{}\" "
                          "style=\"fill:{}\"><title>{}: {:.0f}</title></rect>",
                          x, y + 2, length, pc_row_height - 6, colour, xml_escape(what), count);
      x += length;
    };
    for (std::size_t i = 0; bar.stalls && i < reasons.size(); ++i) {
      const auto found = bar.stalls->find(reasons[i]);
      if (found == bar.stalls->end()) continue;
      segment(std::min(found->second, left), reason_colours[i], reasons[i]);
      left -= std::min(found->second, left);
    }
    segment(left, rest_colour, "other reasons or not stalled");
    html += fmt::format("<text x=\"{:.1f}\" y=\"{}\">{:.1f}%</text></g>\n", x + 6, y + 13,
                        100.0 * share);
    y += pc_row_height;
  }
  html += "</svg>\n";
  return html;
}

}  // namespace

std::string pc_sample_charts_html(const metric_set& metrics) {
  std::map<std::string, double> numbers;
  for (const auto& [name, value] : metrics.values) {
    if (name.find("_pc_") == std::string::npos) continue;
    if (const auto number = numeric_value(value)) numbers[name] = *number;
  }
  std::string html;
  for (const auto& [kernel, record] : pc_kernels_in_metrics(numbers)) {
    if (record.lines.empty()) continue;
    html += kernel_chart(kernel, record);
  }
  return html;
}

}  // namespace aorta::detail
