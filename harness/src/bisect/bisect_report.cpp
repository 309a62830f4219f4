#include "bisect/bisect_report.hpp"

#include "atomic_file.hpp"
#include "metrics/number_format.hpp"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <ostream>

namespace aorta::detail {
namespace {

std::string step_ratio_text(const std::optional<double>& ratio) {
  return ratio ? fmt::format("{:.4f}", *ratio) : std::string("-");
}

std::string step_median_text(const std::optional<double>& value) {
  return value ? fmt::format("{:.6g}", *value) : std::string("-");
}

std::string short_id(const std::string& commit) {
  return commit.substr(0, 12);
}

std::string steps_text(const bisect_record& record) {
  std::string text = fmt::format("{:<5} {:<12} {:<11} {:>8} {:>6}  {}\n", "step", "commit",
                                 "verdict", "ratio", "rounds", "evidence");
  for (const auto& step : record.steps) {
    text += fmt::format("{:<5} {:<12} {:<11} {:>8} {:>6}  {}\n",
                        step.number == 0 ? std::string("ends") : std::to_string(step.number),
                        short_id(step.commit), step.verdict, step_ratio_text(step.ratio),
                        step.rounds, step.evidence);
  }
  return text;
}

std::string moved_text(const std::vector<watched_row>& rows) {
  std::string text;
  for (const auto& row : rows) {
    if (row.verdict == "SAME") continue;
    text += fmt::format("  {:<40} {} -> {}  ratio {}  {}\n", row.quantity,
                        step_median_text(row.base_median), step_median_text(row.head_median),
                        step_ratio_text(row.ratio), row.verdict);
  }
  return text;
}

std::string outcome_line(const bisect_record& record) {
  if (record.culprit) {
    return fmt::format("culprit {} {}", *record.culprit, record.culprit_subject);
  }
  return fmt::format("no culprit named: {}", record.message);
}

std::string markdown_page(const bisect_record& record) {
  std::string page =
      fmt::format("# aorta bisect {}..{}\n\n**{}**\n\n", short_id(record.settings.good),
                  short_id(record.settings.bad), outcome_line(record));
  if (!record.unseparated.empty()) {
    page += "Commits it could not separate (the culprit is one of them):\n\n";
    for (const auto& commit : record.unseparated) page += fmt::format("- `{}`\n", commit);
    page += "\n";
  }
  if (!record.culprit_summary.empty()) {
    page += fmt::format("Good as base, culprit as head: {}\n\n", record.culprit_summary);
  }
  if (!record.culprit_rows.empty()) {
    page += "| quantity | good | culprit | ratio | verdict |\n|---|---|---|---|---|\n";
    for (const auto& row : record.culprit_rows) {
      page += fmt::format("| `{}` | {} | {} | {} | {} |\n", row.quantity,
                          step_median_text(row.base_median), step_median_text(row.head_median),
                          step_ratio_text(row.ratio), row.verdict);
    }
    page += "\n";
  }
  page += "| step | commit | subject | verdict | ratio | rounds | looks | evidence | cells run |\n"
          "|---|---|---|---|---|---|---|---|---|\n";
  for (const auto& step : record.steps) {
    page +=
        fmt::format("| {} | `{}` | {} | {} | {} | {} | {} | {} | [{}]({}/matrix.md) |\n",
                    step.number == 0 ? std::string("ends") : std::to_string(step.number),
                    short_id(step.commit), step.subject, step.verdict, step_ratio_text(step.ratio),
                    step.rounds, step.looks, step.evidence, step.directory, step.directory);
  }
  return page;
}

std::string html_page(const bisect_record& record) {
  std::string page = fmt::format(
      "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>aorta bisect</title>"
      "<style>body{{font-family:sans-serif;margin:2em}}table{{border-collapse:collapse}}"
      "td,th{{border:1px solid #ccc;padding:3px 8px;text-align:left}}.BAD{{color:#b00}}"
      ".GOOD{{color:#070}}</style></head><body>\n<h1>aorta bisect {}..{}</h1>\n<p><b>{}</b></p>\n",
      xml_escape(short_id(record.settings.good)), xml_escape(short_id(record.settings.bad)),
      xml_escape(outcome_line(record)));
  if (!record.unseparated.empty()) {
    page += "<p>Commits it could not separate (the culprit is one of them):</p><ul>\n";
    for (const auto& commit : record.unseparated) {
      page += fmt::format("<li><code>{}</code></li>\n", xml_escape(commit));
    }
    page += "</ul>\n";
  }
  if (!record.culprit_summary.empty()) {
    page += fmt::format("<p class=\"summary\">Good as base, culprit as head: {}</p>\n",
                        xml_escape(record.culprit_summary));
  }
  if (!record.culprit_rows.empty()) {
    page += "<h2>What moved at the culprit</h2><table><tr><th>quantity</th><th>good</th>"
            "<th>culprit</th><th>ratio</th><th>verdict</th></tr>\n";
    for (const auto& row : record.culprit_rows) {
      page += fmt::format("<tr><td><code>{}</code></td><td>{}</td><td>{}</td><td>{}</td><td>{}"
                          "</td></tr>\n",
                          xml_escape(row.quantity), step_median_text(row.base_median),
                          step_median_text(row.head_median), step_ratio_text(row.ratio),
                          xml_escape(row.verdict));
    }
    page += "</table>\n";
  }
  page += "<h2>Steps</h2><table><tr><th>step</th><th>commit</th><th>subject</th><th>verdict</th>"
          "<th>ratio</th><th>rounds</th><th>looks</th><th>evidence</th><th>cells run</th></tr>\n";
  for (const auto& step : record.steps) {
    page += fmt::format(
        "<tr><td>{}</td><td><code>{}</code></td><td>{}</td><td class=\"{}\">{}</td><td>{}</td>"
        "<td>{}</td><td>{}</td><td>{}</td><td><a href=\"{}/matrix.md\">{}</a></td></tr>\n",
        step.number == 0 ? std::string("ends") : std::to_string(step.number),
        xml_escape(short_id(step.commit)), xml_escape(step.subject), xml_escape(step.verdict),
        xml_escape(step.verdict), step_ratio_text(step.ratio), step.rounds, step.looks,
        xml_escape(step.evidence), xml_escape(step.directory), xml_escape(step.directory));
  }
  page += "</table>\n</body></html>\n";
  return page;
}

}  // namespace

void report_bisect_outcome(const bisect_record& record, reporting::reporter& report) {
  report.report(reporting::table_event{"bisect steps", steps_text(record)});
  if (record.culprit) {
    reporting::say(report,
                   fmt::format("bisect: culprit {} {}", *record.culprit, record.culprit_subject));
    if (!record.culprit_summary.empty()) {
      reporting::say(report, fmt::format("bisect: summary (good as base, culprit as head): {}",
                                         record.culprit_summary));
    }
    const std::string moved = moved_text(record.culprit_rows);
    if (!moved.empty()) {
      reporting::say(report, "bisect: what moved at it (good -> culprit):");
      report.report(reporting::table_event{"bisect moved", moved});
    }
    return;
  }
  reporting::say(report, fmt::format("bisect: no culprit named: {}", record.message));
  std::string unseparated;
  for (const auto& commit : record.unseparated) unseparated += fmt::format("  {}\n", commit);
  if (!unseparated.empty()) report.report(reporting::text_event{unseparated});
}

void write_bisect_pages(const std::filesystem::path& dir, const bisect_record& record) {
  write_file_atomically(dir / "bisect.md", markdown_page(record));
  write_file_atomically(dir / "bisect.html", html_page(record));
}

}  // namespace aorta::detail
