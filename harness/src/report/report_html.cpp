// report.html: one self-contained page (inline CSS and SVG, no script, no external asset).
#include "metrics/number_format.hpp"
#include "report/report_comparison.hpp"
#include "report/report_html_parts.hpp"
#include "report/report_model.hpp"
#include "report/report_trends.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>

namespace aorta::detail {
namespace {

constexpr std::size_t reason_chars = 160;

constexpr std::string_view style =
    R"(body{font-family:system-ui,sans-serif;margin:1.5em auto;max-width:72em;padding:0 1em;color:#222;line-height:1.35}
h1{margin-bottom:0.2em}
table{border-collapse:collapse;margin:0.5em 0 1em;max-width:100%}
th,td{border:1px solid #ccc;padding:0.25em 0.6em;text-align:left;vertical-align:top;overflow-wrap:anywhere}
th{background:#f3f3f3;white-space:nowrap}
td.n{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
code{font-size:0.9em;overflow-wrap:anywhere}
.pass{color:#176b2c}.fail,.error{color:#b3261e}.skip{color:#8a5a00}
.badge{display:inline-block;min-width:3.5em;text-align:center;border-radius:3px;padding:0 0.4em;font-weight:600;color:#fff}
.badge.pass{background:#2e7d32}.badge.fail,.badge.error{background:#c62828}.badge.skip{background:#b7791f}
details{border:1px solid #ddd;border-radius:4px;margin:0.5em 0;padding:0.3em 0.8em}
details>summary{cursor:pointer;font-weight:600;overflow-wrap:anywhere}
details[open]>summary{margin-bottom:0.5em}
.note{color:#555;font-size:0.9em}
svg.chart{width:100%;height:auto;display:block;margin:0.3em 0 1em}
svg.chart text{font-size:12px;font-family:ui-monospace,monospace;fill:#222}
svg.chart rect{fill:#4a78b5}
svg.flame{display:block;margin:0.3em 0}
svg.flame text{font-size:11px;font-family:ui-monospace,monospace;fill:#111}
.reason{max-width:36em;font-size:0.9em}
pre.reason-table{font-size:0.85em;overflow-x:auto;background:#f8f8f8;padding:0.5em}
td.name code{overflow-wrap:break-word}
)";

std::string verdict_badge(verdict outcome) {
  const std::string name{to_string(outcome)};
  return fmt::format("<span class=\"badge {}\">{}</span>", name, name);
}

}  // namespace

std::string cell_anchor(const report_model& model, const cell_report& cell) {
  std::string id = "cell-";
  for (const char c : cell.name) {
    const bool plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                       (c >= '0' && c <= '9') || c == '_' || c == '-';
    id += plain ? c : '_';
  }
  const auto index = static_cast<std::size_t>(&cell - model.cells.data());
  return fmt::format("{}-{}", id, index);
}

void html_summary_section(const report_model& model, text_sink& out) {
  if (model.cells.empty()) {
    out += "<p><strong>0 trials.</strong> No profiled test wrote a result in this run.</p>\n";
    return;
  }
  std::size_t passed = 0;
  std::size_t failed = 0;
  std::size_t skipped = 0;
  for (const auto& cell : model.cells) {
    switch (cell.last().verdict) {
    case verdict::pass: ++passed; break;
    case verdict::skip: ++skipped; break;
    default: ++failed; break;
    }
  }
  out += fmt::format("<p><span class=\"pass\">{} passed</span>, <span class=\"fail\">{} "
                     "failed</span>, <span class=\"skip\">{} skipped</span> of {} test{}.</p>\n",
                     passed, failed, skipped, model.cells.size(),
                     model.cells.size() == 1 ? "" : "s");
  out += "<table class=\"summary\">\n<tr><th>test</th><th>verdict</th><th>key metric</th>"
         "<th class=\"n\">value</th><th>trials</th><th>why (when not passed)</th></tr>\n";
  for (const auto& cell : model.cells) {
    const report_trial& last = cell.last();
    const auto& [label, value] = cell.last_key_metric;
    std::string trials = fmt::format("{}", cell.trials.size());
    const std::size_t same = std::max({cell.passed, cell.failed + cell.errored, cell.skipped});
    if (same != cell.trials.size()) {
      trials += fmt::format(" ({} pass, {} fail, {} skip)", cell.passed,
                            cell.failed + cell.errored, cell.skipped);
    }
    if (cell.verdict_from_gate) {
      trials += fmt::format(" judged together by the gate: {}", to_string(last.verdict));
    }
    // The first sentence of the reason fits the matrix; all of it is the hover text and is in
    // the test's own section.
    std::string reason = last.verdict == verdict::pass ? std::string() : last.reason;
    // A pass with gate rows still AMBIGUOUS (`ambiguous pass`) names them here, not only below.
    if (reason.empty()) reason = ambiguous_gate_summary(last);
    // A reason with a table after its first line (the gate's) shows that line; the table is in
    // the test's section.
    std::string shown_reason = reason.substr(0, reason.find('\n'));
    if (shown_reason.size() < reason.size()) shown_reason += " (table below)";
    if (shown_reason.size() > reason_chars) {
      std::size_t cut = reason_chars - 1;
      while (cut > 0 && (static_cast<unsigned char>(shown_reason[cut]) & 0xC0) == 0x80) --cut;
      shown_reason = shown_reason.substr(0, cut) + "…";
    }
    out += fmt::format("<tr><td class=\"name\"><a href=\"#{}\"><code>{}</code></a></td>"
                       "<td>{}</td><td><code>{}</code></td><td class=\"n\" title=\"{}\">{}</td>"
                       "<td>{}</td>"
                       "<td class=\"reason\" title=\"{}\">{}</td></tr>\n",
                       cell_anchor(model, cell), xml_escape(cell.name),
                       verdict_badge(last.verdict), xml_escape(label), xml_escape(value),
                       xml_escape(value.substr(0, value.find(' '))), trials,
                       xml_escape(reason), xml_escape(shown_reason));
  }
  out += "</table>\n";
}

std::string reason_html(verdict outcome, const std::string& reason) {
  const auto first_line_end = reason.find('\n');
  std::string out = fmt::format("<p class=\"{}\">{}: {}</p>\n", to_string(outcome),
                                to_string(outcome), xml_escape(reason.substr(0, first_line_end)));
  if (first_line_end != std::string::npos) {
    out += fmt::format("<pre class=\"reason-table\">{}</pre>\n",
                       xml_escape(reason.substr(first_line_end + 1)));
  }
  return out;
}

void html_stale_section(const report_model& model, text_sink& out) {
  if (model.stale.empty()) return;
  out += fmt::format("<h2>Stale results</h2>\n<p class=\"note\">Left out of this report: written "
                     "before this run started ({}).</p>\n<ul>\n",
                     xml_escape(model.run_started_at));
  for (const auto& old : model.stale) {
    out += fmt::format("<li><code>{}</code>: {}, {}</li>\n", xml_escape(old.result_path),
                       to_string(old.outcome), xml_escape(old.started_at));
  }
  out += "</ul>\n";
}

void html_skipped_files_section(const report_model& model, text_sink& out) {
  if (model.skipped_files.empty()) return;
  out += "<h2>Skipped result files</h2>\n<ul>\n";
  for (const auto& note : model.skipped_files) {
    out += fmt::format("<li>{}</li>\n", xml_escape(note));
  }
  out += "</ul>\n";
}

void write_html_report(std::ostream& stream, const report_model& model) {
  text_sink out(stream);
  out += "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
         "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
         "<title>aorta report</title>\n<style>\n";
  out += style;
  out += "</style>\n</head>\n<body>\n<h1>aorta report</h1>\n";
  out += fmt::format("<p class=\"note\">Generated {} from {} trial{} in {} test{}{}.</p>\n",
                     xml_escape(model.generated_at), model.trial_count,
                     model.trial_count == 1 ? "" : "s", model.cells.size(),
                     model.cells.size() == 1 ? "" : "s",
                     model.run_started_at.empty()
                         ? std::string()
                         : fmt::format("; run started {}", xml_escape(model.run_started_at)));
  constexpr std::array<html_section, 6> sections{html_comparison_section, html_summary_section,
                                                 html_trends_section,
                                                 html_cells_section, html_stale_section,
                                                 html_skipped_files_section};
  for (const html_section section : sections) section(model, out);
  out += "</body>\n</html>\n";
  out.flush();
}

}  // namespace aorta::detail
