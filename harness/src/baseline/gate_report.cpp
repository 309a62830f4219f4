#include "baseline/gate_report.hpp"

#include "baseline/gate_attribution.hpp"
#include "baseline/gate_explain.hpp"

#include "metrics/number_format.hpp"
#include "metrics/quantity_table.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <limits>

namespace aorta::detail {
namespace {

std::string delta_text(const gate_row& row) {
  if (!row.delta) return "-";
  if (std::isinf(*row.delta)) return *row.delta > 0 ? "+inf" : "-inf";
  return fmt::format("{:+.2f}%", *row.delta * 100.0);
}

std::string gate_median_text(const gate_row& row, bool fresh) {
  const auto& samples = fresh ? row.fresh : row.base;
  if (samples.empty()) return "-";
  return format_number(fresh ? row.fresh_median : row.base_median);
}

// Mangled C++ kernel names run to hundreds of characters; the table keeps their start (the JSON
// and gate.json keep them whole).
std::string gate_shortened(const std::string& label) {
  constexpr std::size_t limit = 72;
  return label.size() <= limit ? label : label.substr(0, limit - 3) + "...";
}

bool timed(const gate_row& row) {
  return !row.exact && is_timed_quantity(row.quantity);
}

int verdict_rank(const gate_row& row) {
  if (fails_gate(row)) return 0;
  return row.verdict == gate_verdict::same ? 2 : 1;
}

double relative_move(const gate_row& row) {
  if (!row.delta) return fails_gate(row) ? std::numeric_limits<double>::infinity() : 0.0;
  return std::fabs(*row.delta);
}

double absolute_move(const gate_row& row) {
  if (row.base.empty() || row.fresh.empty()) return 0.0;
  return std::fabs(judged_fresh_level(row) - row.base_median);
}

// "(+3 loader/libc row(s) folded, 2 MORE (fail): (below main), __libc_start_main)": the names of
// the folded rows that moved, so a libc change alone is still visible.
std::string folded_line(const std::vector<const gate_row*>& folded) {
  std::size_t failing = 0;
  std::string moved;
  for (const gate_row* row : folded) {
    if (row->verdict == gate_verdict::same) continue;
    if (fails_gate(*row)) ++failing;
    moved += fmt::format("{}{} {}", moved.empty() ? "" : ", ", gate_shortened(row->label),
                         verdict_label(*row));
  }
  return fmt::format("(+{} loader/libc row(s) folded{}{})\n", folded.size(),
                     failing > 0 ? fmt::format(", {} failing", failing) : std::string(),
                     moved.empty() ? std::string(", all SAME") : ": " + moved);
}

// "; largest moves: ir(main) +4.10% (bound +5%), ...": a passing gate still shows its deltas, so
// a +4% under a +5% bound is seen before it becomes a +9%.
std::string largest_same_moves(const std::vector<gate_row>& rows) {
  constexpr std::size_t shown = 3;
  std::vector<const gate_row*> same;
  for (const auto& row : rows) {
    if (!row.system_frame && row.verdict == gate_verdict::same && row.delta &&
        std::isfinite(*row.delta) && *row.delta != 0.0) {
      same.push_back(&row);
    }
  }
  if (same.empty()) return {};
  std::stable_sort(same.begin(), same.end(), [](const gate_row* a, const gate_row* b) {
    return std::fabs(*a->delta) > std::fabs(*b->delta);
  });
  std::string text = "; largest moves: ";
  for (std::size_t i = 0; i < same.size() && i < shown; ++i) {
    text += fmt::format("{}{} {}{}", i == 0 ? "" : ", ", gate_shortened(same[i]->label),
                        delta_text(*same[i]),
                        same[i]->bound_text.empty()
                            ? std::string()
                            : fmt::format(" ({})", same[i]->bound_text));
  }
  return text;
}

struct geomean_change {
  double ratio = 1.0;
  long rows = 0;
  long multimodal = 0;
};

// Over the timed rows: the median ratio, or a multi-modal row's judged change (its medians follow
// the mix of modes).
std::optional<geomean_change> geomean_change_of(const std::vector<gate_row>& rows) {
  double log_sum = 0.0;
  geomean_change change;
  for (const auto& row : rows) {
    const double fresh = judged_fresh_level(row);
    if (!timed(row) || row.base.empty() || row.fresh.empty() || row.base_median <= 0 ||
        !(fresh > 0)) {
      continue;
    }
    log_sum += std::log(fresh / row.base_median);
    ++change.rows;
    change.multimodal += row.modes ? 1 : 0;
  }
  if (change.rows == 0) return std::nullopt;
  change.ratio = std::exp(log_sum / static_cast<double>(change.rows));
  return change;
}

}  // namespace

void order_by_significance(std::vector<gate_row>& rows) {
  std::stable_sort(rows.begin(), rows.end(), [](const gate_row& a, const gate_row& b) {
    if (a.test != b.test) return a.test < b.test;
    if (verdict_rank(a) != verdict_rank(b)) return verdict_rank(a) < verdict_rank(b);
    if (a.system_frame != b.system_frame) return !a.system_frame;
    if (relative_move(a) != relative_move(b)) return relative_move(a) > relative_move(b);
    return absolute_move(a) > absolute_move(b);
  });
}

std::optional<double> geomean_ratio(const std::vector<gate_row>& rows) {
  const auto change = geomean_change_of(rows);
  if (!change) return std::nullopt;
  return change->ratio;
}

std::string format_gate_table(const std::vector<gate_row>& rows, bool only_interesting) {
  struct line {
    std::array<std::string, 8> cells;
  };
  std::vector<line> lines;
  lines.push_back({{"test", "quantity", "bound", "base median", "new median", "delta",
                    "evidence (n base/new)", "verdict"}});
  std::size_t same = 0;
  std::vector<const gate_row*> folded;
  for (const auto& row : rows) {
    if (row.system_frame) {
      folded.push_back(&row);
      continue;
    }
    if (only_interesting && row.verdict == gate_verdict::same) {
      ++same;
      continue;
    }
    std::string evidence = row.evidence.empty() ? "-" : row.evidence;
    evidence += fmt::format(" ({}/{})", row.base.size(), row.fresh.size());
    if (!row.why_unknown.empty()) evidence += ": " + row.why_unknown;
    if (!row.attribution.empty() &&
        (row.verdict == gate_verdict::worse || row.verdict == gate_verdict::ambiguous)) {
      evidence += "; " + row.attribution;
    }
    std::string verdict = verdict_label(row);
    if (fails_gate(row)) verdict += " (fail)";
    std::vector<std::string> why;
    if (row.verdict != gate_verdict::same) why.push_back(gate_share_text(rows, row));
    why.push_back(gate_work_words(rows, row));
    std::erase_if(why, [](const std::string& text) { return text.empty(); });
    if (!why.empty()) verdict += fmt::format(": {}", fmt::join(why, "; "));
    lines.push_back(
        {{row.test, gate_shortened(row.label), row.bound_text, gate_median_text(row, false),
          gate_median_text(row, true), delta_text(row), evidence, verdict}});
  }
  std::array<std::size_t, 8> widths{};
  for (const auto& l : lines) {
    for (std::size_t i = 0; i < widths.size(); ++i) {
      widths[i] = std::max(widths[i], l.cells[i].size());
    }
  }
  std::string out;
  if (lines.size() == 1) lines.clear();  // nothing but SAME rows: no empty table
  for (const auto& l : lines) {
    std::string text;
    for (std::size_t i = 0; i < widths.size(); ++i) {
      text += i + 1 == widths.size() ? l.cells[i] : fmt::format("{:<{}}  ", l.cells[i], widths[i]);
    }
    out += text + "\n";
  }
  if (same > 0) {
    const std::string movers = largest_same_moves(rows);
    out += lines.empty() ? fmt::format("all {} row(s) SAME{}\n", same, movers)
                         : fmt::format("({} more row(s) SAME{})\n", same, movers);
  }
  if (!folded.empty()) out += folded_line(folded);
  // A table of moved rows ends with one sentence per test that moved: what a CI log's tail shows.
  if (!lines.empty()) {
    for (const auto& sentence : gate_summaries(rows, true)) out += "summary: " + sentence + "\n";
  }
  if (const auto change = geomean_change_of(rows)) {
    out += fmt::format("geomean of new/base medians over {} timed row(s){}: {:+.2f}%\n",
                       change->rows,
                       change->multimodal == 0
                           ? std::string()
                           : fmt::format(" ({} multi-modal: the change within its modes)",
                                         change->multimodal),
                       (change->ratio - 1.0) * 100.0);
  }
  return out;
}

nlohmann::json gate_rows_json(const std::vector<gate_row>& rows) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& row : rows) {
    nlohmann::json item = {
        {"test", row.test},
        {"quantity", row.label},
        {"bound", row.bound_text},
        {"exact", row.exact},
        {"base_samples", row.base},
        {"new_samples", row.fresh},
        {"base_median", row.base.empty() ? nlohmann::json(nullptr) : nlohmann::json(row.base_median)},
        {"new_median", row.fresh.empty() ? nlohmann::json(nullptr) : nlohmann::json(row.fresh_median)},
        {"delta", row.delta && std::isfinite(*row.delta) ? nlohmann::json(*row.delta)
                                                          : nlohmann::json(nullptr)},
        {"p_value", row.p_value ? nlohmann::json(*row.p_value) : nlohmann::json(nullptr)},
        {"evidence", row.evidence},
        {"verdict", verdict_label(row)},
        {"fails", fails_gate(row)},
    };
    if (!row.why_unknown.empty()) item["why_unknown"] = row.why_unknown;
    if (!row.floor_note.empty()) item["floor_note"] = row.floor_note;
    if (!row.attribution.empty()) item["attribution"] = row.attribution;
    if (const auto share = gate_share(rows, row)) item["share"] = *share;
    if (const auto why = gate_work_words(rows, row); !why.empty()) item["why"] = why;
    if (row.modes) item["modes"] = multimodal_json(*row.modes, "new_trials", "base_trials");
    out.push_back(std::move(item));
  }
  return out;
}

}  // namespace aorta::detail
