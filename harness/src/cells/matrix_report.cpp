#include "cells/matrix_report.hpp"

#include "cells/confound_summary.hpp"
#include "cells/matrix_checks.hpp"

#include "atomic_file.hpp"
#include "json_document.hpp"
#include "metrics/number_format.hpp"
#include "utc_timestamp.hpp"

#include <fmt/format.h>

#include <fmt/ranges.h>

#include <algorithm>
#include <array>
#include <map>
#include <unordered_map>
#include <unordered_set>

namespace aorta::detail {
namespace {

using json = nlohmann::json;

struct counts {
  int passed = 0;
  int failed = 0;
  int skipped = 0;
  int errored = 0;
  int ran = 0;
};

counts count_verdicts(const cell_trials& trials) {
  counts result;
  for (const auto& trial : trials) {
    if (!trial) continue;
    ++result.ran;
    switch (trial->verdict) {
    case verdict::pass: ++result.passed; break;
    case verdict::fail: ++result.failed; break;
    case verdict::skip: ++result.skipped; break;
    case verdict::error: ++result.errored; break;
    }
  }
  return result;
}

// {mean, min, max, n} per numeric metric over the trials that have it, as the original's
// metrics_summary.
json metrics_summary(const cell_trials& trials) {
  struct running {
    double sum = 0.0;
    double min = 0.0;
    double max = 0.0;
    std::size_t n = 0;
  };
  std::map<std::string, running> by_name;
  for (const auto& trial : trials) {
    if (!trial) continue;
    for (const auto& [name, value] : trial->metrics.values) {
      const auto number = numeric_value(value);
      if (!number) continue;
      auto& entry = by_name[name];
      entry.min = entry.n == 0 ? *number : std::min(entry.min, *number);
      entry.max = entry.n == 0 ? *number : std::max(entry.max, *number);
      entry.sum += *number;
      ++entry.n;
    }
  }
  json summary = json::object();
  for (const auto& [name, entry] : by_name) {
    summary[name] = {{"mean", entry.sum / static_cast<double>(entry.n)},
                     {"min", entry.min},
                     {"max", entry.max},
                     {"n", entry.n}};
  }
  return summary;
}

std::string ratio_text(const std::optional<double>& ratio) {
  return ratio ? fmt::format("{:.4f}", *ratio) : "-";
}

std::string median_text(const std::optional<double>& median) {
  return median ? format_number(*median) : "-";
}

// "+12.50% [+11.9%, +13.1%]": the median per-round move and, for a timed row, its interval.
std::string change_text(const confound_row& row) {
  if (!row.ratio) return "-";
  std::string text = fmt::format("{:+.2f}%", (*row.ratio - 1.0) * 100.0);
  if (row.ratio_low && row.ratio_high) {
    text += fmt::format(" [{:+.1f}%, {:+.1f}%]", (*row.ratio_low - 1.0) * 100.0,
                        (*row.ratio_high - 1.0) * 100.0);
  }
  return text;
}

std::string share_cell(const confound_row& row) {
  if (row.self_share) return fmt::format("{:.0f}% self", whole_percent(*row.self_share));
  if (row.share) return fmt::format("{:.0f}%", whole_percent(*row.share));
  return "-";
}

std::string verdict_text(const confound_row& row, double threshold, double alpha) {
  const auto note = within_threshold_note(row, threshold, alpha);
  return note.empty() ? std::string(to_string(row.verdict))
                      : fmt::format("{} ({})", to_string(row.verdict), note);
}

std::string shortened(const std::string& label);

// "(heavy: 3 loader/libc row(s) folded, all SAME)", naming those that moved.
std::string folded_cells_line(const std::string& cell,
                              const std::vector<const confound_row*>& frames) {
  std::vector<std::string> moved;
  for (const confound_row* row : frames) {
    if (row->verdict == confound_verdict::same) continue;
    moved.push_back(fmt::format("{} {}", shortened(row->quantity), to_string(row->verdict)));
  }
  return fmt::format("({}: {} loader/libc row(s) folded{})\n", cell, frames.size(),
                     moved.empty() ? std::string(", all SAME")
                                   : fmt::format(": {}", fmt::join(moved, ", ")));
}

std::string shortened(const std::string& label) {
  constexpr std::size_t limit = 72;
  return label.size() <= limit ? label : label.substr(0, limit - 3) + "...";
}

json changes_json(const std::vector<cell_change>& changes) {
  json out = json::array();
  for (const auto& change : changes) {
    json totals = json::array();
    for (const auto& total : change.totals) {
      totals.push_back({{"family", total.family},
                        {"exact", total.exact},
                        {"reference_median", total.reference},
                        {"cell_median", total.cell},
                        {"ratio", total.ratio},
                        {"ratio_low", total.low ? json(*total.low) : json(nullptr)},
                        {"ratio_high", total.high ? json(*total.high) : json(nullptr)}});
    }
    out.push_back({{"cell", change.cell},
                   {"reference_cell", change.reference},
                   {"sentence", change.sentence},
                   {"totals", std::move(totals)}});
  }
  return out;
}

// One entry per mitigation_axis entry (its cells share one cell_changes), and by cell the index
// of its entry: a mitigation of 80,000 arguments under 2,048 diagnostics was written 2,048 times.
struct change_sets {
  json entries = json::array();
  std::vector<std::size_t> of_cell;
};

change_sets shared_change_sets(const matrix_run& run) {
  change_sets sets;
  std::unordered_map<const cell_changes*, std::size_t> index;
  for (const auto& cell : run.cells) {
    const auto [found, added] = index.try_emplace(cell.changes.get(), sets.entries.size());
    sets.of_cell.push_back(found->second);
    if (!added) continue;
    const cell_changes& changes = changes_of(cell);
    sets.entries.push_back({{"mitigation", cell.mitigation},
                            {"resolved_env_vars", changes.env_set},
                            {"unset_env_vars", changes.env_unset},
                            {"command", changes.command.value_or(run.base_command)},
                            {"extra_args", changes.extra_args}});
  }
  return sets;
}

// Each axis entry's variables once, not in a column of every cell: a mitigation setting 900 KB of
// variables under 2,048 diagnostics made a 1.8 GB matrix.md.
std::string environment_markdown(const matrix_run& run) {
  std::string text;
  std::unordered_set<const cell_changes*> written;
  for (const auto& cell : run.cells) {
    if (!cell.changes || !written.insert(cell.changes.get()).second) continue;
    std::string env;
    for (const auto& [name, value] : cell.changes->env_set) {
      env += fmt::format("`{}={}` ", name, value);
    }
    for (const auto& name : cell.changes->env_unset) env += fmt::format("`-{}` ", name);
    if (env.empty()) continue;
    if (text.empty()) text = "\n| mitigation | env |\n|---|---|\n";
    text += fmt::format("| {} | {}|\n", cell.mitigation, env);
  }
  return text;
}

}  // namespace

json matrix_json(const matrix_run& run) {
  change_sets sets = shared_change_sets(run);
  json cells = json::array();
  for (std::size_t i = 0; i < run.cells.size(); ++i) {
    const auto& cell = run.cells[i];
    const auto& trials = run.trials[i];
    const counts tally = count_verdicts(trials);
    const int judged = tally.ran - tally.skipped;
    json paths = json::array();
    for (std::size_t round = 0; round < trials.size(); ++round) {
      if (trials[round]) paths.push_back(fmt::format("{}/trial_{}/result.json", cell.name, round));
    }
    cells.push_back(
        {{"name", cell.name},
         {"mitigations", cell.mitigations},
         {"diagnostic", cell.diagnostic},
         {"trials", cell.trials},
         {"passed_count", tally.passed},
         {"failed_count", tally.failed},
         {"skipped_count", tally.skipped},
         {"error_count", tally.errored},
         {"failure_rate",
          judged > 0 ? static_cast<double>(tally.failed + tally.errored) / judged : 0.0},
         {"change_set", sets.of_cell[i]},
         {"metrics_summary", metrics_summary(trials)},
         {"trial_results", std::move(paths)}});
  }
  json confound = nullptr;
  if (run.baseline_cell) {
    std::map<std::string, int> verdicts;
    for (const auto& row : run.rows) ++verdicts[std::string(to_string(row.verdict))];
    confound = {{"baseline_cell", *run.baseline_cell},
                {"threshold", run.threshold},
                {"alpha", run.alpha},
                {"fail", run.fail_on_slower},
                {"ambiguous", std::string(to_string(run.ambiguous))},
                {"test", "Wilcoxon signed-rank on per-round log ratios, one-sided in the direction "
                         "of the move (scipy.stats.wilcoxon)"},
                {"verdict_counts", verdicts},
                {"summaries", changes_json(run.changes)},
                {"rows", confound_rows_json(run.rows)}};
  }
  json document = {{"generated_at", utc_timestamp()},
                   {"seed", std::to_string(run.seed)},
                   {"rounds", run.rounds},
                   {"change_sets", std::move(sets.entries)},
                   {"cells", std::move(cells)},
                   {"confound", std::move(confound)},
                   {"checks", matrix_checks_json(run.checks)}};
  if (run.incomplete) document["incomplete"] = *run.incomplete;
  return stamped(std::move(document), schemas::matrix);
}

std::string confound_table(const std::vector<confound_row>& rows, bool all, double threshold,
                           double alpha) {
  std::vector<std::array<std::string, 10>> lines;
  lines.push_back({"cell", "reference", "quantity", "ref median", "cell median", "change", "share",
                   "evidence", "verdict", "why"});
  std::map<std::string, std::vector<const confound_row*>> folded;
  std::map<std::string, std::size_t> hidden;
  for (const auto& row : rows) {
    if (row.system_frame) {
      folded[row.cell].push_back(&row);
      continue;
    }
    if (!all && row.verdict == confound_verdict::same) {
      ++hidden[row.cell];
      continue;
    }
    lines.push_back({row.cell, row.reference, shortened(row.quantity),
                     median_text(row.reference_median), median_text(row.cell_median),
                     change_text(row), share_cell(row), row.evidence,
                     verdict_text(row, threshold, alpha), row.work});
  }
  std::array<std::size_t, 10> widths{};
  for (const auto& l : lines) {
    for (std::size_t i = 0; i < widths.size(); ++i) widths[i] = std::max(widths[i], l[i].size());
  }
  std::string text;
  for (const auto& l : lines) {
    std::string line;
    for (std::size_t i = 0; i < widths.size(); ++i) {
      line += i + 1 == widths.size() ? l[i] : fmt::format("{:<{}}  ", l[i], widths[i]);
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    text += line + "\n";
  }
  for (const auto& [cell, count] : hidden) {
    text += fmt::format("({}: {} more row(s) SAME)\n", cell, count);
  }
  for (const auto& [cell, frames] : folded) text += folded_cells_line(cell, frames);
  return text;
}

std::string matrix_markdown(const matrix_run& run) {
  std::string text = fmt::format("# Cells\n\nseed {}, {} round(s); trials interleaved one per cell "
                                 "per round, shuffled each round.\n\n",
                                 run.seed, run.rounds);
  if (run.incomplete) {
    text += fmt::format("**Incomplete: {}.** No cell check or confound verdict was judged.\n\n",
                        *run.incomplete);
  }
  text += "| cell | mitigations | diagnostic | trials | pass | fail | skip | error |\n"
          "|---|---|---|---|---|---|---|---|\n";
  for (std::size_t i = 0; i < run.cells.size(); ++i) {
    const auto& cell = run.cells[i];
    const counts tally = count_verdicts(run.trials[i]);
    std::string stack;
    for (const auto& m : cell.mitigations) stack += (stack.empty() ? "" : " + ") + m;
    text += fmt::format("| {} | {} | {} | {} | {} | {} | {} | {} |\n", cell.name, stack,
                        cell.diagnostic, cell.trials, tally.passed, tally.failed, tally.skipped,
                        tally.errored);
  }
  text += environment_markdown(run);
  if (!run.checks.empty()) {
    text += "\n## Checks over cells\n\n| check | result | expected | actual |\n|---|---|---|---|\n";
    for (const auto& check : run.checks) {
      text += fmt::format("| `{}` | {} | {} | {} |\n", check.expression,
                          check.passed ? "PASS" : "FAIL", check.expected, check.actual);
    }
  }
  if (!run.baseline_cell) return text;
  text += fmt::format("\n## Confound verdicts against {} (threshold {:g}, alpha {:g})\n\n",
                      *run.baseline_cell, run.threshold, run.alpha);
  for (const auto& change : run.changes) text += fmt::format("- **{}**\n", change.sentence);
  text += "\n| cell | reference | quantity | reference median | cell median | ratio | change | "
          "share | evidence | verdict | why |\n|---|---|---|---|---|---|---|---|---|---|---|\n";
  for (const auto& row : run.rows) {
    text += fmt::format("| {} | {} | `{}` | {} | {} | {} | {} | {} | {} | {} | {} |\n", row.cell,
                        row.reference, row.quantity, median_text(row.reference_median),
                        median_text(row.cell_median), ratio_text(row.ratio), change_text(row),
                        share_cell(row), row.evidence, verdict_text(row, run.threshold, run.alpha),
                        row.system_frame ? "loader/libc frame" : row.work);
  }
  return text;
}

void write_matrix_reports(const std::filesystem::path& output_dir, const matrix_run& run) {
  write_file_atomically(output_dir / "matrix.json", document_text(matrix_json(run)));
  write_file_atomically(output_dir / "matrix.md", matrix_markdown(run));
}

}  // namespace aorta::detail
