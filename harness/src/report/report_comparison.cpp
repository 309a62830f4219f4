// The A/B of a cells run where people look (issue 43): report.html and perf.md lead with the
// confound verdict the sweep wrote into matrix.json (kept by read_sweep_matrix), its summary
// sentences and a chart of each row's change, instead of showing the cells as separate tests.
#include "report/report_comparison.hpp"
#include "metrics/number_format.hpp"
#include "report/report_html_parts.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>

namespace aorta::detail {
namespace {

using json = nlohmann::json;

constexpr std::size_t comparison_chart_rows = 15;
constexpr int comparison_label_width = 360;
constexpr int comparison_half_width = 200;  // each side of the zero line
constexpr int comparison_value_width = 120;
constexpr int comparison_row_height = 20;

const json* confound_of(const report_model& model) {
  if (!model.sweep_matrix) return nullptr;
  const auto found = model.sweep_matrix->find("confound");
  if (found == model.sweep_matrix->end() || !found->is_object()) return nullptr;
  return &*found;
}

std::string text_of(const json& object, const char* key) {
  const auto found = object.find(key);
  return found != object.end() && found->is_string() ? found->get<std::string>() : std::string();
}

std::optional<double> number_of(const json& object, const char* key) {
  const auto found = object.find(key);
  if (found == object.end() || !found->is_number()) return std::nullopt;
  return found->get<double>();
}

struct changed_row {
  std::string label;
  std::string verdict;
  double percent = 0.0;
};

// The rows a chart can draw: a ratio, not a loader/libc frame, moved rows first as the table.
std::vector<changed_row> chart_rows_of(const json& confound) {
  std::vector<changed_row> rows;
  const auto found = confound.find("rows");
  if (found == confound.end() || !found->is_array()) return rows;
  for (const auto& row : *found) {
    if (!row.is_object()) continue;
    const auto ratio = number_of(row, "ratio");
    const auto system = row.find("system_frame");
    if (!ratio || (system != row.end() && system->is_boolean() && system->get<bool>())) continue;
    rows.push_back({fmt::format("{}: {}", text_of(row, "cell"), text_of(row, "quantity")),
                    text_of(row, "verdict"), (*ratio - 1.0) * 100.0});
    if (rows.size() == comparison_chart_rows) break;
  }
  return rows;
}

// Red to the right for slower, blue to the left for faster, grey for SAME; width = the change.
std::string change_chart_svg(const std::vector<changed_row>& rows) {
  if (rows.empty()) return {};
  double largest = 0.0;
  for (const auto& row : rows) largest = std::max(largest, std::fabs(row.percent));
  if (largest <= 0.0) largest = 1.0;
  const int width = comparison_label_width + 2 * comparison_half_width + comparison_value_width;
  const int height = static_cast<int>(rows.size()) * comparison_row_height + 4;
  std::string svg = fmt::format(
      "<svg class=\"chart change\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {} {}\" "
      "style=\"max-width:{}px\" role=\"img\" aria-label=\"change of each row, cell against its "
      "reference\">\n<line x1=\"{}\" y1=\"0\" x2=\"{}\" y2=\"{}\" stroke=\"#888\"/>\n",
      width, height, width, comparison_label_width + comparison_half_width,
      comparison_label_width + comparison_half_width, height);
  int y = 2;
  for (const auto& row : rows) {
    const int length =
        std::max(1, static_cast<int>(std::fabs(row.percent) / largest * comparison_half_width));
    const bool slower = row.percent >= 0.0;
    const std::string colour = row.verdict == "SAME" ? "#9e9e9e" : slower ? "#c62828" : "#1565c0";
    const int x = slower ? comparison_label_width + comparison_half_width
                         : comparison_label_width + comparison_half_width - length;
    const std::string value = fmt::format("{:+.2f}% {}", row.percent, row.verdict);
    svg += fmt::format(
        "<g><title>{}: {}</title><text x=\"0\" y=\"{}\">{}</text>"
        "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" rx=\"2\" "
        "style=\"fill:{}\"/><text x=\"{}\" y=\"{}\">{}</text></g>\n",
        xml_escape(row.label), xml_escape(value), y + 13, xml_escape(row.label.substr(0, 48)), x,
        y + 2, length, comparison_row_height - 6, colour,
        comparison_label_width + 2 * comparison_half_width + 6, y + 13, xml_escape(value));
    y += comparison_row_height;
  }
  return svg + "</svg>\n";
}

// "SLOWER" when a row is SLOWER, else "FASTER", "AMBIGUOUS", "UNKNOWN", else "SAME".
std::string overall_verdict(const json& confound) {
  const auto counts = confound.find("verdict_counts");
  if (counts == confound.end() || !counts->is_object()) return "UNKNOWN";
  for (const char* verdict : {"SLOWER", "FASTER", "AMBIGUOUS", "UNKNOWN"}) {
    const auto found = counts->find(verdict);
    if (found != counts->end() && found->is_number() && found->get<double>() > 0) return verdict;
  }
  return "SAME";
}

std::vector<std::string> sentences_of(const json& confound) {
  std::vector<std::string> sentences;
  const auto found = confound.find("summaries");
  if (found == confound.end() || !found->is_array()) return sentences;
  for (const auto& item : *found) {
    if (item.is_object()) sentences.push_back(text_of(item, "sentence"));
  }
  return sentences;
}

std::string settings_line(const json& confound) {
  return fmt::format("against cell {}, threshold {}, alpha {}", text_of(confound, "baseline_cell"),
                     format_number(number_of(confound, "threshold").value_or(0.0)),
                     format_number(number_of(confound, "alpha").value_or(0.0)));
}

}  // namespace

void html_comparison_section(const report_model& model, text_sink& out) {
  const json* confound = confound_of(model);
  if (confound == nullptr) return;
  const std::string verdict = overall_verdict(*confound);
  const std::string badge = verdict == "SAME" ? "pass" : verdict == "FASTER" ? "skip" : "fail";
  out += fmt::format("<h2>A/B: cells compared</h2>\n<p class=\"verdict\"><span class=\"badge "
                     "{}\">{}</span> {}</p>\n<ul class=\"summaries\">\n",
                     badge, verdict, xml_escape(settings_line(*confound)));
  for (const auto& sentence : sentences_of(*confound)) {
    out += fmt::format("<li>{}</li>\n", xml_escape(sentence));
  }
  out += "</ul>\n";
  out += change_chart_svg(chart_rows_of(*confound));
  out += "<p class=\"note\">Each row's median per-round ratio, cell against its reference: red "
         "slower, blue faster, grey within the threshold. Every row is in matrix.md.</p>\n";
  for (const auto& flame : model.flames) {
    out += fmt::format("<h3>Differential flame graph: {} against {}</h3>\n", xml_escape(flame.cell),
                       xml_escape(flame.reference));
    if (flame.svg.empty()) {
      out += fmt::format("<p class=\"note\">No flame graph: {}.</p>\n", xml_escape(flame.why_not));
      continue;
    }
    out += flame.svg;
    out += fmt::format("<p class=\"note\">The last trial of each cell ({}): each box a frame as "
                       "wide as its larger side (time in ms; self Ir for callgrind), red: {} "
                       "slower, blue: faster, grey: unchanged; hover a box for both values. One "
                       "trial each, not the rounds' medians: the table above is the verdict.</p>\n",
                       xml_escape(flame.collector), xml_escape(flame.cell));
  }
}

void markdown_comparison(const report_model& model, text_sink& out) {
  const json* confound = confound_of(model);
  if (confound == nullptr) return;
  out += fmt::format("## A/B: {} ({})\n\n", overall_verdict(*confound), settings_line(*confound));
  for (const auto& sentence : sentences_of(*confound)) out += fmt::format("- {}\n", sentence);
  out += "\n| row | change | verdict |\n|---|---|---|\n";
  for (const auto& row : chart_rows_of(*confound)) {
    out += fmt::format("| `{}` | {:+.2f}% | {} |\n", row.label, row.percent, row.verdict);
  }
  out += "\n";
}

}  // namespace aorta::detail
