#include "report/report_stragglers.hpp"

#include "metrics/number_format.hpp"
#include "report/report_html_parts.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>

namespace aorta::detail {
namespace {

double median_over(std::vector<double> values) {
  if (values.empty()) return 0.0;
  std::sort(values.begin(), values.end());
  const std::size_t mid = values.size() / 2;
  return values.size() % 2 == 1 ? values[mid] : (values[mid - 1] + values[mid]) / 2.0;
}

// Kernel time when any rank of any trial has some; else the top function's Ir (callgrind).
bool uses_time(const std::vector<trial_entry>& trials) {
  for (const auto& trial : trials) {
    for (const auto& row : trial.record.ranks) {
      if (row.time_ms > 0.0) return true;
    }
  }
  return false;
}

struct rank_series {
  std::string host;
  std::string card;
  std::vector<double> values;
  std::vector<double> ratios;
};

// One trial's value per rank (a rank's first row that measured it; a rank has a row per collector).
std::map<int, double> values_of(const report_trial& trial, bool time) {
  std::map<int, double> values;
  for (const auto& row : trial.ranks) {
    const double value = time ? row.time_ms : static_cast<double>(row.ir);
    if (value > 0.0 && !values.contains(row.rank)) values[row.rank] = value;
  }
  return values;
}

}  // namespace

rank_stragglers stragglers_of(const std::vector<trial_entry>& trials) {
  rank_stragglers out;
  const bool time = uses_time(trials);
  out.quantity = time ? "total ms" : "Ir of the top function";
  std::map<int, rank_series> series;
  for (const auto& trial : trials) {
    for (const auto& row : trial.record.ranks) {
      auto& one = series[row.rank];
      one.host = row.host;
      if (!row.card.empty()) one.card = row.card;
    }
    const auto values = values_of(trial.record, time);
    if (values.size() < 2) continue;
    for (const auto& [rank, value] : values) {
      std::vector<double> peers;
      for (const auto& [other, peer] : values) {
        if (other != rank) peers.push_back(peer);
      }
      series[rank].values.push_back(value);
      series[rank].ratios.push_back(value / median_over(peers));
    }
  }
  if (series.size() < 2) return out;
  for (const auto& [rank, one] : series) {
    if (one.ratios.empty()) continue;
    rank_straggler_row row{rank,
                           one.host,
                           one.card,
                           median_over(one.values),
                           median_over(one.ratios),
                           0.0,
                           0,
                           static_cast<int>(one.ratios.size())};
    for (const double ratio : one.ratios) {
      row.max_ratio = std::max(row.max_ratio, ratio);
      if (ratio > report_straggler_threshold) ++row.trials_over;
    }
    out.rows.push_back(std::move(row));
  }
  return out;
}

std::string render_straggler_table_markdown(const rank_stragglers& ranks) {
  if (ranks.rows.empty()) return {};
  std::string out = fmt::format(
      "Stragglers over all trials ({}; ratio = the rank / the median of its peers in the same "
      "trial, slow above {}):\n\n| rank | host | card | median {} | median ratio | max ratio | "
      "trials slow |\n|---:|---|---|---:|---:|---:|---:|\n",
      ranks.quantity, format_number(report_straggler_threshold), ranks.quantity);
  for (const auto& row : ranks.rows) {
    out += fmt::format("| {} | {} | {} | {} | {} | {} | {}{}/{}{} |\n", row.rank, row.host,
                       row.card.empty() ? "-" : row.card, format_number(row.median_value),
                       format_number(row.median_ratio), format_number(row.max_ratio),
                       row.trials_over > 0 ? "**" : "", row.trials_over, row.trials,
                       row.trials_over > 0 ? "**" : "");
  }
  return out + "\n";
}

std::string render_straggler_chart_html(const rank_stragglers& ranks) {
  if (ranks.rows.empty()) return {};
  std::vector<double> medians;
  double largest = 0.0;
  for (const auto& row : ranks.rows) {
    medians.push_back(row.median_value);
    largest = std::max(largest, row.median_value);
  }
  const double band_low = median_over(medians) * (2.0 - report_straggler_threshold);
  const double band_high = median_over(medians) * report_straggler_threshold;
  largest = std::max(largest, band_high);
  constexpr int label_width = 220, bar_width = 360, row_height = 20;
  const auto x_of = [&](double value) { return label_width + value / largest * bar_width; };
  const int height = static_cast<int>(ranks.rows.size()) * row_height + 4;
  std::string out = fmt::format(
      "<h4>Per rank, median over the trials ({})</h4>\n<svg class=\"chart\" "
      "xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {} {}\" style=\"max-width:{}px\" "
      "role=\"img\" aria-label=\"value per rank\">\n<rect x=\"{:.1f}\" y=\"0\" width=\"{:.1f}\" "
      "height=\"{}\" fill=\"#8c8\" fill-opacity=\"0.25\"><title>the ranks' median x (1 +- {}%)"
      "</title></rect>\n",
      xml_escape(ranks.quantity), label_width + bar_width + 120, height,
      label_width + bar_width + 120, x_of(band_low), x_of(band_high) - x_of(band_low), height,
      format_number((report_straggler_threshold - 1.0) * 100.0));
  int y = 2;
  for (const auto& row : ranks.rows) {
    const std::string label = fmt::format("rank {} ({}{}{})", row.rank, row.host,
                                          row.card.empty() ? "" : ", ", row.card.substr(0, 12));
    out += fmt::format(
        "<g><title>{}: {}, ratio to peers {}</title><text x=\"0\" y=\"{}\">{}</text><rect "
        "x=\"{}\" y=\"{}\" width=\"{:.1f}\" height=\"{}\" rx=\"2\"{}/><text x=\"{:.1f}\" "
        "y=\"{}\">{}</text></g>\n",
        xml_escape(label), format_number(row.median_value), format_number(row.median_ratio), y + 13,
        xml_escape(label), label_width, y + 2, std::max(1.0, x_of(row.median_value) - label_width),
        row_height - 6, row.trials_over > 0 ? " fill=\"#c33\"" : "", x_of(row.median_value) + 6,
        y + 13, format_number(row.median_value));
    y += row_height;
  }
  out +=
      "</svg>\n<p class=\"note\">The green band is the ranks' median &#215; (1 &#177; 5%); a red "
      "bar is a rank slower than its peers' median by more than 5% in at least one trial.</p>\n";
  return out;
}

}  // namespace aorta::detail
