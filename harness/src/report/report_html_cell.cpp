// One test's section of report.html, collapsed by default: checks, charts, metrics.
#include "metrics/display_names.hpp"
#include "metrics/number_format.hpp"
#include "metrics/quantity_table.hpp"
#include "report/report_html_parts.hpp"
#include "report/report_pc_samples.hpp"
#include "report/report_rank_table.hpp"
#include "report/report_stragglers.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <set>

namespace aorta::detail {
namespace {

void render_checks(const report_trial& last, text_sink& out) {
  if (last.checks.empty()) {
    if (last.verdict == verdict::pass || last.verdict == verdict::fail) {
      out += "<p class=\"note\">No checks ran: only the payload's exit status was judged.</p>\n";
    }
    return;
  }
  out += "<table>\n<tr><th>check</th><th>result</th><th>expected</th><th>actual</th></tr>\n";
  for (const auto& check : last.checks) {
    // An AMBIGUOUS gate row reads as such, red when the policy failed the test on it.
    const bool ambiguous = is_ambiguous_gate_check(check);
    out += fmt::format("<tr><td><code>{}</code></td><td class=\"{}\">{}</td><td><code>{}</code>"
                       "</td><td><code>{}</code></td></tr>\n",
                       xml_escape(check.expression),
                       check.passed ? (ambiguous ? "skip" : "pass") : "fail",
                       ambiguous ? "AMBIGUOUS" : (check.passed ? "PASS" : "FAIL"),
                       xml_escape(check.expected), xml_escape(check.actual));
  }
  out += "</table>\n";
}

void render_charts(const cell_report& cell, text_sink& out) {
  const report_trial& last = cell.last();
  for (const kernel_groups::group& group : cell.last_kernel_groups.groups()) {
    // Reserved first, so the bars' views of the names stay valid as they are added.
    std::vector<std::string> names;
    names.reserve(group.count);
    std::vector<chart_bar> bars;
    bars.reserve(group.count);
    for (const kernel_row* row : cell.last_kernel_groups.rows(group)) {
      names.push_back(demangled_name(row->name));
      bars.push_back({names.back(), row->total_ms});
    }
    out += fmt::format("<h4>Total ms per kernel ({})</h4>\n", xml_escape(group.collector));
    out += bar_chart_svg(std::move(bars), "ms", "total ms per kernel");
  }
  std::vector<chart_bar> scopes;
  std::vector<chart_bar> functions;
  for (const auto& [name, value] : last.metrics.values) {
    const auto number = numeric_value(value);
    if (!number) continue;
    if (const auto scope = metric_name_in(scope_cycles_row().quantity, name)) {
      scopes.push_back({*scope, *number});
    } else if (const auto function = metric_name_in(inclusive_ir_row().quantity, name)) {
      if (!is_system_frame(*function)) functions.push_back({*function, *number});
    }
  }
  if (!scopes.empty()) {
    out += "<h4>Cycles per scope</h4>\n";
    out += bar_chart_svg(std::move(scopes), "cycles", "cycles per instrumentation scope");
  }
  if (!functions.empty()) {
    out += "<h4>Inclusive Ir per function (the program's own; loader and libc folded)</h4>\n";
    out += bar_chart_svg(std::move(functions), "Ir", "inclusive instructions per function");
  }
  out += pc_sample_charts_html(last.metrics);
}

void render_metrics(const cell_report& cell, text_sink& out) {
  if (cell.metrics_summary.empty()) return;
  const std::vector<std::string>& folded = cell.folded_functions;
  out += "<details class=\"metrics\"><summary>Metrics</summary>\n<table>\n<tr><th>metric</th>"
         "<th class=\"n\">mean</th><th class=\"n\">min</th><th class=\"n\">max</th>"
         "<th class=\"n\">n</th></tr>\n";
  for (const std::size_t row : cell.summary_rows) {
    const auto& [name, stats] = cell.metrics_summary.at(row);
    out +=
        fmt::format("<tr><td><code title=\"{}\">{}</code></td><td class=\"n\">{}</td>"
                    "<td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td>"
                    "</tr>\n",
                    xml_escape(name), xml_escape(ellipsized(name, 90)), format_number(stats.mean),
                    format_number(stats.min), format_number(stats.max), stats.n);
  }
  out += "</table>\n";
  if (!folded.empty()) {
    out += fmt::format("<p class=\"note\">{} loader/libc function(s) folded: ", folded.size());
    for (std::size_t i = 0; i < folded.size(); ++i) {
      out += fmt::format("{}<code>{}</code>", i == 0 ? "" : ", ", xml_escape(folded[i]));
    }
    out += "</p>\n";
  }
  out += "</details>\n";
}

void render_cell(const report_model& model, const cell_report& cell, text_sink& out) {
  const report_trial& last = cell.last();
  const auto& [label, value] = cell.last_key_metric;
  out += fmt::format("<details id=\"{}\"><summary><span class=\"badge {}\">{}</span> <code>{}"
                     "</code>{}</summary>\n",
                     cell_anchor(model, cell), to_string(last.verdict), to_string(last.verdict),
                     xml_escape(cell.name),
                     label.empty() ? std::string()
                                   : fmt::format(" <span class=\"note\">{} = {}</span>",
                                                 xml_escape(label), xml_escape(value)));
  out += fmt::format("<p>{} trial{}: {}; failure rate {}; last trial <code>{}</code>, started "
                     "{}.</p>\n",
                     cell.trials.size(), cell.trials.size() == 1 ? "" : "s",
                     xml_escape(trial_counts_text(cell)), format_number(cell.failure_rate),
                     xml_escape(cell.trials.back().result_path), xml_escape(last.started_at));
  if (last.verdict != verdict::pass && !last.reason.empty()) {
    out += reason_html(last.verdict, last.reason);
  }
  render_checks(last, out);
  out += render_rank_table_html(last.ranks);
  out += render_straggler_chart_html(stragglers_of(cell.trials));
  render_charts(cell, out);
  render_metrics(cell, out);
  std::string text_rows;
  for (const auto* entry : cell.last_text_values) {
    const auto& [name, metric] = *entry;
    text_rows += fmt::format("<tr><td><code>{}</code></td><td><code>{}</code></td></tr>\n",
                             xml_escape(name), xml_escape(format_metric_value(metric)));
  }
  if (!text_rows.empty()) {
    out += fmt::format("<details><summary>Other values</summary>\n<table>\n{}</table>\n"
                       "</details>\n",
                       text_rows);
  }
  out += "</details>\n";
}

}  // namespace

void html_cells_section(const report_model& model, text_sink& out) {
  if (model.cells.empty()) return;
  out += "<h2>Tests</h2>\n";
  for (const auto& cell : model.cells) render_cell(model, cell, out);
}

}  // namespace aorta::detail
