#include "ranks/rank_checks.hpp"

#include "checks/check_message.hpp"
#include "metrics/number_format.hpp"
#include "baseline/shared_card.hpp"
#include "metrics/quantity_table.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <optional>
#include <string>

namespace aorta {
namespace {

// Each rank over the median of the other ranks, the largest of those: one slow rank among many
// stands out against a median its own value cannot move (max/min would also grow with one fast
// rank). nullopt with `why` when fewer than two ranks measured or a peers' median is not positive.
struct straggler_ratio {
  double ratio = 0.0;
  int rank = 0;
  double peers_median = 0.0;
};

std::optional<straggler_ratio> largest_straggler(const std::vector<std::pair<int, double>>& values,
                                                 std::string& why) {
  if (values.size() < 2) {
    why = fmt::format("a straggler is a rank against its peers, and only rank {} measured; "
                      "a one-rank trial has no peers (check the launcher's rank count)",
                      values.empty() ? -1 : values.front().first);
    return std::nullopt;
  }
  std::optional<straggler_ratio> worst;
  for (std::size_t index = 0; index < values.size(); ++index) {
    std::vector<double> peers;
    for (std::size_t other = 0; other < values.size(); ++other) {
      if (other != index) peers.push_back(values[other].second);
    }
    std::sort(peers.begin(), peers.end());
    const std::size_t mid = peers.size() / 2;
    const double median =
        peers.size() % 2 == 1 ? peers[mid] : (peers[mid - 1] + peers[mid]) / 2.0;
    if (median <= 0.0) {
      why = fmt::format("the median of rank {}'s peers is {}, so rank / peers is undefined",
                        values[index].first, detail::format_number(median));
      return std::nullopt;
    }
    const double ratio = values[index].second / median;
    if (!worst || ratio > worst->ratio) worst = straggler_ratio{ratio, values[index].first, median};
  }
  return worst;
}

// The table's timed rows (kernel time, scope cycles) are what a card's clock measures.
bool reads_card_time(check_quantity quantity) {
  return detail::is_timed_quantity(quantity);
}

// Why a timed straggler cannot be judged over these ranks: two of them ran on one card at once.
std::string unserialized_sharing(const check_expression& expression,
                                 const std::vector<rank_captures>& ranks) {
  const bool timed = reads_card_time(expression.quantity()) ||
                     (expression.is_ratio() && reads_card_time(expression.denominator_quantity()));
  if (!timed) return "";
  std::vector<detail::rank_on_card> places;
  for (const auto& rank : ranks) places.push_back({rank.rank, rank.host, rank.card});
  const auto shared = detail::shared_cards(places);
  return shared.empty() ? "" : detail::shared_card_refusal(shared, "in this trial");
}

}  // namespace

check_result evaluate_rank_check(const check_expression& expression,
                                 const std::vector<rank_captures>& ranks, bool ranks_serialized) {
  check_result result;
  result.expression = expression.text();
  result.expected = fmt::format("{} {}", to_string(expression.op()), expression.threshold_text());
  result.actual = "unknown";
  const auto fail = [&](const std::string& why) {
    result.message = detail::failed_check_message(result, why);
    return result;
  };
  if (ranks.empty()) return fail("no rank wrote a capture");

  const check_expression inner = expression.per_rank();
  std::vector<std::pair<int, double>> values;
  std::vector<std::string> shown;
  for (const auto& rank : ranks) {
    const check_result measured = evaluate_check(inner, rank.captures, metric_set{});
    if (!measured.value) {
      return fail(fmt::format("rank {}{}: {} is {}", rank.rank,
                              rank.host.empty() ? "" : " on " + rank.host, inner.text(),
                              measured.actual));
    }
    values.emplace_back(rank.rank, *measured.value);
    shown.push_back(fmt::format("{}={}", rank.rank, detail::format_number(*measured.value)));
  }
  const auto by_value = [](const auto& a, const auto& b) { return a.second < b.second; };
  const auto [low, high] = std::minmax_element(values.begin(), values.end(), by_value);
  const std::string per_rank = fmt::format("per rank: {}", fmt::join(shown, ", "));
  double value = 0.0;
  switch (expression.over_ranks()) {
  case rank_reduction::max:
  case rank_reduction::none:
    value = high->second;
    result.actual = fmt::format("{} on rank {} ({})", detail::format_number(value), high->first,
                                per_rank);
    break;
  case rank_reduction::min:
    value = low->second;
    result.actual = fmt::format("{} on rank {} ({})", detail::format_number(value), low->first,
                                per_rank);
    break;
  case rank_reduction::imbalance:
    if (low->second <= 0.0) {
      result.actual = fmt::format("undefined ({})", per_rank);
      return fail(fmt::format("rank {} measured {}, so max/min is undefined", low->first,
                              detail::format_number(low->second)));
    }
    value = high->second / low->second;
    result.actual = fmt::format("{} (max {} on rank {} / min {} on rank {}; {})",
                                detail::format_number(value), detail::format_number(high->second),
                                high->first, detail::format_number(low->second), low->first,
                                per_rank);
    break;
  case rank_reduction::straggler: {
    if (!ranks_serialized) {
      const std::string sharing = unserialized_sharing(expression.per_rank(), ranks);
      if (!sharing.empty()) {
        result.actual = fmt::format("not judged ({})", per_rank);
        return fail(sharing);
      }
    }
    std::string why;
    const auto worst = largest_straggler(values, why);
    if (!worst) {
      result.actual = fmt::format("undefined ({})", per_rank);
      return fail(why);
    }
    value = worst->ratio;
    result.actual = fmt::format("{} (rank {} at {} / median of its peers {}; {})",
                                detail::format_number(value), worst->rank,
                                detail::format_number(worst->ratio * worst->peers_median),
                                detail::format_number(worst->peers_median), per_rank);
    break;
  }
  }
  result.value = value;
  result.passed = compare(value, expression.op(), expression.threshold());
  if (result.passed) {
    result.message = detail::passed_check_message(result);
    return result;
  }
  return fail(fmt::format("{} over {} rank(s)", to_string(expression.over_ranks()), ranks.size()));
}

}  // namespace aorta
