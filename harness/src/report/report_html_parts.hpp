// The pieces of report.html. Each section is one function appending HTML for the whole model, so
// a new section (a baseline comparison, trends, a per-rank table) is one more function in the
// list that write_html_report() walks, without touching the others.
#pragma once

#include "aorta/metrics.hpp"
#include "report/report_model.hpp"
#include "report/report_text_sink.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace aorta::detail {

using html_section = void (*)(const report_model& model, text_sink& out);

// Sections in page order.
void html_summary_section(const report_model& model, text_sink& out);  // test × verdict matrix
void html_cells_section(const report_model& model, text_sink& out);    // one <details> per test
void html_stale_section(const report_model& model, text_sink& out);    // older runs, left out
void html_skipped_files_section(const report_model& model, text_sink& out);

// The anchor id of a cell's section: "cell-" and the name with anything but [A-Za-z0-9_-]
// replaced, plus the cell's index so two names never share one.
[[nodiscard]] std::string cell_anchor(const report_model& model, const cell_report& cell);

// A verdict's reason as HTML: its first line as a paragraph, the lines after it (the gate's
// table) kept as preformatted text rather than run together into one paragraph.
[[nodiscard]] std::string reason_html(verdict outcome, const std::string& reason);

// A horizontal bar chart as inline SVG, scaled to its container; labels shortened to fit with
// the full label in each bar's <title> (the browser's hover text). At most `limit` bars.
// The labels are views: a chart of 200,000 scopes copied every name to draw 15 of them.
struct chart_bar {
  std::string_view label;  // full name, held by the caller until the chart is drawn
  double value = 0.0;
};
[[nodiscard]] std::string bar_chart_svg(std::vector<chart_bar> bars, const std::string& unit,
                                        const std::string& aria_label);

}  // namespace aorta::detail
