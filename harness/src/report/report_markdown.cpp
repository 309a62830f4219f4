#include "metrics/display_names.hpp"
#include "metrics/number_format.hpp"
#include "report/report_comparison.hpp"
#include "report/report_model.hpp"
#include "report/report_rank_table.hpp"
#include "report/report_stragglers.hpp"
#include "report/report_text_sink.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <string_view>

namespace aorta::detail {

namespace {

// A code span that survives a GFM table: `|` escaped, backticks fenced by a longer run.
std::string code(std::string_view text) {
  // Appended a run between bars at a time, not a character at a time: most names have no bar.
  // No reserve: a short name stays in the string's own buffer (a reserve raised peak RSS).
  std::string escaped;
  for (std::size_t run = 0; run <= text.size();) {
    const std::size_t bar = std::min(text.find('|', run), text.size());
    escaped.append(text.substr(run, bar - run));
    if (bar < text.size()) escaped += "\\|";
    run = bar + 1;
  }
  if (escaped.find('`') != std::string::npos) return "`` " + escaped + " ``";
  return "`" + escaped + "`";
}

std::string plain(std::string_view text) {
  std::string escaped;
  for (const char c : text) {
    if (c == '|' || c == '\\' || c == '*' || c == '_' || c == '`' || c == '<' || c == '>') {
      escaped += '\\';
    }
    escaped += c;
  }
  return escaped;
}

// The cell's heading, its trial counts and why its last trial did not pass.
void render_cell_heading(const cell_report& cell, text_sink& out) {
  out += fmt::format("## {}\n\n", plain(cell.name));
  out += fmt::format("{} trial{}: {}; failure rate {}\n\n", cell.trials.size(),
                     cell.trials.size() == 1 ? "" : "s", trial_counts_text(cell),
                     format_number(cell.failure_rate));
  // Why the last trial did not pass, so a skipped or failed cell explains itself in the report.
  if (cell.last().verdict != verdict::pass && !cell.last().reason.empty()) {
    // The gate's table after the reason's first line stays a table (a code block).
    const std::string& reason = cell.last().reason;
    const auto first_line_end = reason.find('\n');
    out += fmt::format("Last trial {}: {}\n\n", to_string(cell.last().verdict),
                       reason.substr(0, first_line_end));
    if (first_line_end != std::string::npos) {
      out += fmt::format("```\n{}```\n\n", reason.substr(first_line_end + 1));
    }
  }
}

void render_metric_summary(const cell_report& cell, text_sink& out) {
  if (cell.metrics_summary.empty()) {
    out += "No numeric metrics.\n\n";
  } else {
    // callgrind's functions by cost, the program's own first; loader and libc frames folded.
    const std::vector<std::string>& folded = cell.folded_functions;
    out += "| metric | mean | min | max | n |\n|---|---:|---:|---:|---:|\n";
    for (const std::size_t row : cell.summary_rows) {
      const auto& [name, stats] = cell.metrics_summary.at(row);
      out += fmt::format("| {} | {} | {} | {} | {} |\n", code(name), format_number(stats.mean),
                         format_number(stats.min), format_number(stats.max), stats.n);
    }
    out += "\n";
    if (!folded.empty()) {
      out += fmt::format("{} loader/libc function(s) folded:", folded.size());
      // Appended piecewise: `" " + code(...)` trips GCC 12's -Wrestrict false positive at -O3.
      for (const auto& function : folded) {
        out += ' ';
        out += code(function);
      }
      out += "\n\n";
    }
  }
}

// The last trial's text values (numbers are in the summary).
void render_text_values(const cell_report& cell, text_sink& out) {
  const report_trial& last = cell.last();
  const std::string& last_path = cell.trials.back().result_path;
  bool any_text = false;
  for (const auto* entry : cell.last_text_values) {
    const auto& [name, value] = *entry;
    if (!any_text) {
      out +=
          fmt::format("Last trial ({}), verdict {}:\n\n| value | of the last trial |\n|---|---|\n",
                      code(last_path), to_string(last.verdict));
      any_text = true;
    }
    std::string shown;
    if (const auto* list = std::get_if<std::vector<std::string>>(&value)) {
      for (const auto& item : *list) shown += (shown.empty() ? "" : ", ") + code(item);
    } else {
      shown = code(std::get<std::string>(value));
    }
    out += fmt::format("| {} | {} |\n", code(name), shown);
  }
  if (any_text) out += "\n";
}

void render_top_kernels(const cell_report& cell, text_sink& out) {
  const auto& top = cell.last_top_kernels;
  if (!top.empty()) {
    out += "Top kernels of the last trial:\n\n| kernel | collector | launches | total ms |\n"
           "|---|---|---:|---:|\n";
    for (const kernel_row* row : top) {
      out += fmt::format(
          "| {} | {} | {} | {} |\n", code(demangled_name(row->name)), plain(row->collector),
          row->launches ? std::to_string(*row->launches) : "unknown", format_number(row->total_ms));
    }
    out += "\n";
  }
}

void render_failed_checks(const report_trial& last, text_sink& out) {
  bool any_failed_check = false;
  for (const auto& check : last.checks) {
    if (check.passed) continue;
    if (!any_failed_check) out += "Failed checks of the last trial:\n\n";
    any_failed_check = true;
    out += fmt::format("- {}: expected {}, actual {}\n", code(check.expression),
                       code(check.expected), code(check.actual));
  }
  if (any_failed_check) out += "\n";
  bool any_ambiguous = false;
  for (const auto& check : last.checks) {
    if (!check.passed || !is_ambiguous_gate_check(check)) continue;  // failed: listed above
    if (!any_ambiguous) out += "Gate rows still AMBIGUOUS (the test's verdict is the gate policy's):\n\n";
    any_ambiguous = true;
    out += fmt::format("- {}: expected {}, actual {}\n", code(check.expression),
                       code(check.expected), code(check.actual));
  }
  if (any_ambiguous) out += "\n";
}

void render_markdown_cell(const cell_report& cell, text_sink& out) {
  render_cell_heading(cell, out);
  render_metric_summary(cell, out);
  render_text_values(cell, out);
  render_top_kernels(cell, out);
  out += render_rank_table_markdown(cell.last().ranks);
  out += render_straggler_table_markdown(stragglers_of(cell.trials));
  render_failed_checks(cell.last(), out);
}

}  // namespace

void write_perf_markdown(std::ostream& stream, const report_model& model) {
  text_sink out(stream);
  out += "# aorta performance report\n\n";
  out += fmt::format("Generated {} from {} trial{} in {} cell{}.\n\n", model.generated_at,
                     model.trial_count, model.trial_count == 1 ? "" : "s", model.cells.size(),
                     model.cells.size() == 1 ? "" : "s");
  markdown_comparison(model, out);
  for (const auto& cell : model.cells) render_markdown_cell(cell, out);
  if (!model.stale.empty()) {
    out += fmt::format("## Stale results\n\nLeft out: written before this run started ({}).\n\n",
                       model.run_started_at);
    for (const auto& old : model.stale) {
      out += fmt::format("- {}: {}, {}\n", code(old.result_path), to_string(old.outcome),
                         old.started_at);
    }
    out += "\n";
  }
  if (!model.skipped_files.empty()) {
    out += "## Skipped result files\n\n";
    for (const auto& note : model.skipped_files) out += fmt::format("- {}\n", plain(note));
    out += "\n";
  }
  out.flush();
}

}  // namespace aorta::detail
