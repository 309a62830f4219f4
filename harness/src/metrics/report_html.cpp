#include "metrics/number_format.hpp"
#include "metrics/report_model.hpp"
#include "ranks/rank_rows.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace aorta::detail {
namespace {

constexpr std::size_t chart_bar_limit = 20;
constexpr std::size_t chart_label_chars = 48;
constexpr int chart_label_width = 380;
constexpr int chart_bar_width = 360;
constexpr int chart_row_height = 22;

constexpr std::string_view style = R"(body{font-family:system-ui,sans-serif;margin:2em;color:#222}
table{border-collapse:collapse;margin:0.5em 0 1.5em}
th,td{border:1px solid #ccc;padding:0.25em 0.6em;text-align:left}
td.n{text-align:right;font-variant-numeric:tabular-nums}
code{font-size:0.9em}
.pass{color:#176b2c}.fail{color:#b3261e}
svg text{font-size:12px;font-family:monospace}
)";

std::string shortened(const std::string& name) {
  if (name.size() <= chart_label_chars) return name;
  return name.substr(0, chart_label_chars - 3) + "...";
}

// Per-kernel total ms of one trial as horizontal bars; the full name is the bar's tooltip.
std::string kernel_chart(const metric_set& metrics) {
  std::vector<kernel_row> rows = metrics.kernels;
  std::stable_sort(rows.begin(), rows.end(),
                   [](const auto& a, const auto& b) { return a.total_ms > b.total_ms; });
  const std::size_t hidden = rows.size() > chart_bar_limit ? rows.size() - chart_bar_limit : 0;
  rows.resize(std::min(rows.size(), chart_bar_limit));
  bool several_collectors = false;
  for (const auto& row : rows) several_collectors |= row.collector != rows.front().collector;
  const double largest = rows.front().total_ms > 0.0 ? rows.front().total_ms : 1.0;

  const int height = static_cast<int>(rows.size()) * chart_row_height + 4;
  std::string svg = fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{}\" height=\"{}\" role=\"img\" "
      "aria-label=\"total ms per kernel\">\n",
      chart_label_width + chart_bar_width + 120, height);
  int y = 2;
  for (const auto& row : rows) {
    std::string label = row.name;
    if (several_collectors) label = fmt::format("[{}] {}", row.collector, row.name);
    const int length =
        std::max(1, static_cast<int>(row.total_ms / largest * chart_bar_width + 0.5));
    svg += fmt::format("<g><title>{}: {} ms</title><text x=\"0\" y=\"{}\">{}</text>"
                       "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"#4a78b5\"/>"
                       "<text x=\"{}\" y=\"{}\">{}</text></g>\n",
                       xml_escape(label), format_number(row.total_ms), y + 14,
                       xml_escape(shortened(label)), chart_label_width, y + 2, length,
                       chart_row_height - 6, chart_label_width + length + 6, y + 14,
                       format_number(row.total_ms));
    y += chart_row_height;
  }
  svg += "</svg>\n";
  if (hidden > 0) svg += fmt::format("<p>{} more kernels not drawn.</p>\n", hidden);
  return svg;
}

void render_cell(const cell_report& cell, std::string& out) {
  out += fmt::format("<section>\n<h2>{}</h2>\n", xml_escape(cell.name));
  out += fmt::format(
      "<p>{} trial{}: <span class=\"pass\">{} pass</span>, <span class=\"fail\">{} fail</span>, "
      "{} skip, {} error; failure rate {}</p>\n",
      cell.trials.size(), cell.trials.size() == 1 ? "" : "s", cell.passed, cell.failed,
      cell.skipped, cell.errored, format_number(cell.failure_rate));
  if (!cell.metrics_summary.empty()) {
    out += "<table>\n<tr><th>metric</th><th>mean</th><th>min</th><th>max</th><th>n</th></tr>\n";
    for (const auto& [name, stats] : cell.metrics_summary) {
      out +=
          fmt::format("<tr><td><code>{}</code></td><td class=\"n\">{}</td><td class=\"n\">{}</td>"
                      "<td class=\"n\">{}</td><td class=\"n\">{}</td></tr>\n",
                      xml_escape(name), format_number(stats.mean), format_number(stats.min),
                      format_number(stats.max), stats.n);
    }
    out += "</table>\n";
  }
  const trial_record& last = cell.last();
  std::string text_rows;
  for (const auto& [name, value] : last.metrics.values) {
    if (numeric_value(value)) continue;
    text_rows += fmt::format("<tr><td><code>{}</code></td><td>{}</td></tr>\n", xml_escape(name),
                             xml_escape(format_metric_value(value)));
  }
  if (!text_rows.empty()) {
    out +=
        fmt::format("<h3>Last trial ({}, {})</h3>\n<table>\n{}</table>\n",
                    xml_escape(cell.trials.back().result_path), to_string(last.verdict), text_rows);
  }
  for (const auto& check : last.checks) {
    out += fmt::format("<p class=\"{}\">{} <code>{}</code>: expected {}, actual {}</p>\n",
                       check.passed ? "pass" : "fail", check.passed ? "passed" : "failed",
                       xml_escape(check.expression), xml_escape(check.expected),
                       xml_escape(check.actual));
  }
  out += render_rank_table_html(last.ranks);
  if (!last.metrics.kernels.empty()) {
    out += "<h3>Total ms per kernel, last trial</h3>\n";
    out += kernel_chart(last.metrics);
  }
  out += "</section>\n";
}

}  // namespace

std::string render_html_report(const report_model& model) {
  std::string out = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
                    "<title>aorta report</title>\n<style>\n";
  out += style;
  out += "</style>\n</head>\n<body>\n<h1>aorta report</h1>\n";
  out += fmt::format("<p>Generated {} from {} trial{} in {} cell{}.</p>\n",
                     xml_escape(model.generated_at), model.trial_count,
                     model.trial_count == 1 ? "" : "s", model.cells.size(),
                     model.cells.size() == 1 ? "" : "s");
  for (const auto& cell : model.cells) render_cell(cell, out);
  if (!model.skipped_files.empty()) {
    out += "<h2>Skipped result files</h2>\n<ul>\n";
    for (const auto& note : model.skipped_files) {
      out += fmt::format("<li>{}</li>\n", xml_escape(note));
    }
    out += "</ul>\n";
  }
  out += "</body>\n</html>\n";
  return out;
}

}  // namespace aorta::detail
