#include "baseline/straggler_gate.hpp"

#include "baseline/rank_gate.hpp"
#include "metrics/display_names.hpp"
#include "metrics/quantity_table.hpp"
#include "baseline/shared_card.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <optional>
#include <set>

namespace aorta::detail {
namespace {

using straggler_reader = std::function<std::optional<double>(const trial_snapshot&)>;

struct quantity {
  std::string label;
  check_quantity kind;
  bool exact;
  straggler_reader value;
};

double peers_median_of(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const std::size_t mid = values.size() / 2;
  return values.size() % 2 == 1 ? values[mid] : (values[mid - 1] + values[mid]) / 2.0;
}

// Every quantity the table marks `straggler_judged` (kernel time, a recorded function's Ir), for
// each kernel or function that some rank measured in some trial.
std::vector<quantity> quantities_of(const measured_test& fresh) {
  std::vector<quantity> out;
  for (const quantity_declaration& declared : quantity_table()) {
    if (!declared.straggler_judged) continue;
    const check_quantity kind = declared.quantity;
    const bool exact = is_exact_quantity(kind, {});
    std::set<std::string> names;
    for (const auto& [rank, series] : fresh.ranks) {
      for (const auto& trial : series.trials) {
        if (declared.source == value_source::kernels) {
          for (const auto& [name, sample] : trial.kernels) names.insert(name);
          continue;
        }
        for (const auto& [key, value] : trial.metrics) {
          // The loader's and libc's frames move with the environment's size, which differs by
          // rank (each rank's variables): they are no rank's work.
          const auto name = metric_name_in(kind, key);
          if (name && !is_system_frame(*name)) names.insert(std::string(*name));
        }
      }
    }
    for (const auto& name : names) {
      straggler_reader value;
      if (declared.source == value_source::kernels) {
        value = [name, kind](const trial_snapshot& t) -> std::optional<double> {
          const auto found = t.kernels.find(name);
          if (found == t.kernels.end()) return std::nullopt;
          const auto read = kernel_sample_value(found->second, kind);
          if (!read || !std::isfinite(*read)) return std::nullopt;
          return read;
        };
      } else {
        value = [key = metric_key(kind, name)](const trial_snapshot& t) -> std::optional<double> {
          const auto found = t.metrics.find(key);
          if (found == t.metrics.end()) return std::nullopt;
          return found->second;
        };
      }
      out.push_back({fmt::format("straggler({})", quantity_label(declared, name)), kind, exact,
                     std::move(value)});
    }
  }
  return out;
}

// The ranks that wrote anything in trial t.
std::vector<int> ranks_in_trial(const measured_test& fresh, std::size_t trial) {
  std::vector<int> ranks;
  for (const auto& [rank, series] : fresh.ranks) {
    if (trial < series.trials.size() &&
        (!series.trials[trial].kernels.empty() || !series.trials[trial].metrics.empty())) {
      ranks.push_back(rank);
    }
  }
  return ranks;
}

gate_row straggler_row(const quantity& what, const std::string& label, double fraction) {
  gate_row row;
  row.label = label + ": " + what.label;
  row.quantity = what.kind;
  row.exact = what.exact;
  row.op = compare_op::less_equal;
  row.fraction = fraction;
  row.bound_text = fmt::format("<= peers' median + {:g}%", fraction * 100.0);
  return row;
}

// A function whose Ir is under 0.1% of the program's on every rank is not what makes a rank slow,
// as the gate's ir rows ignore moves of that size (gate_spec.cpp: ir_noise_floor).
bool below_ir_floor(const measured_test& test, std::size_t trial, const std::vector<int>& ranks,
                    const std::map<int, double>& values) {
  for (const int rank : ranks) {
    const auto& metrics = test.ranks.at(rank).trials[trial].metrics;
    const auto total = metrics.find(std::string(callgrind_total_ir_metric));
    const auto value = values.find(rank);
    if (total == metrics.end() || value == values.end()) return false;
    if (value->second >= 0.001 * total->second) return false;
  }
  return true;
}

// Per rank, its ratio to its peers' median in every trial with two ranks or more; a rank without
// the quantity where a peer has it, or with peers at a median of 0, gets `lost` set instead.
struct rank_ratios {
  std::vector<straggler_observation> seen;
  std::string lost;
};

std::map<int, rank_ratios> ratios_of(const measured_test& test, const quantity& what) {
  std::map<int, rank_ratios> by_rank;
  for (std::size_t trial = 0; trial < test.trials.size(); ++trial) {
    const auto ranks = ranks_in_trial(test, trial);
    if (ranks.size() < 2) continue;
    std::map<int, double> values;
    for (const int rank : ranks) {
      if (const auto value = what.value(test.ranks.at(rank).trials[trial])) values[rank] = *value;
    }
    if (values.empty()) continue;  // no rank has it in this trial: nothing lost
    if (declaration_of(what.kind).source == value_source::functions &&
        below_ir_floor(test, trial, ranks, values))
      continue;
    for (const int rank : ranks) {
      auto& mine = by_rank[rank];
      if (!values.contains(rank)) {
        mine.lost = fmt::format("trial {}: rank {} measured nothing for it while {} of its peers "
                                "did (the rank lost the kernel or function)",
                                trial, rank, values.size());
        continue;
      }
      std::vector<double> peers;
      for (const auto& [other, value] : values) {
        if (other != rank) peers.push_back(value);
      }
      const double median = peers_median_of(peers);
      if (median <= 0.0) {
        mine.lost = fmt::format("trial {}: the median of rank {}'s peers is {}, so rank / peers "
                                "is undefined",
                                trial, rank, median);
        continue;
      }
      // By card_identity_of: "GPU index 0" on two hosts is two cards.
      const auto& places = test.ranks.at(rank).places;
      mine.seen.push_back(
          {rank,
           trial < places.size() ? card_identity_of(places[trial].host, places[trial].card) : "",
           values[rank] / median});
    }
  }
  return by_rank;
}

// Why the timed rows of `fresh` cannot be judged: ranks that ran on one card at once, in the
// first trial where they did (and how many more); empty when no trial had any, or when the recipe
// said they took the card in turn.
std::string unserialized_card_sharing(const measured_test& fresh) {
  if (fresh.ranks_serialized) return "";
  std::vector<shared_card> first;
  std::size_t first_trial = 0;
  std::size_t trials_shared = 0;
  for (std::size_t trial = 0; trial < fresh.trials.size(); ++trial) {
    std::vector<rank_on_card> places;
    for (const int rank : ranks_in_trial(fresh, trial)) {
      const auto& series = fresh.ranks.at(rank).places;
      if (trial < series.size()) places.push_back({rank, series[trial].host, series[trial].card});
    }
    auto shared = shared_cards(places);
    if (shared.empty()) continue;
    if (trials_shared++ == 0) {
      first = std::move(shared);
      first_trial = trial;
    }
  }
  if (trials_shared == 0) return "";
  const std::string where = trials_shared == 1
                                ? fmt::format("in trial {}", first_trial)
                                : fmt::format("in trial {} (and {} more of the run's {} trials)",
                                              first_trial, trials_shared - 1, fresh.trials.size());
  return shared_card_refusal(first, where);
}

// One quantity's rows from `fresh`; the attribution reads the baseline's trials too (`base` may
// be null), so ranks that moved between cards from one run to the next tell work from card.
// `sharing` (unserialized_card_sharing) makes every timed row unknown.
void add_quantity_rows(const measured_test& fresh, const measured_test* base, const quantity& what,
                       double fraction, const std::string& sharing, std::vector<gate_row>& rows) {
  const auto fresh_ratios = ratios_of(fresh, what);
  std::vector<straggler_observation> all;
  for (const auto* side : {base, &fresh}) {
    if (side == nullptr) continue;
    for (const auto& [rank, ratios] : side == &fresh ? fresh_ratios : ratios_of(*side, what)) {
      all.insert(all.end(), ratios.seen.begin(), ratios.seen.end());
    }
  }
  const std::string attribution = attribute_straggler(all, 1.0 + fraction);
  for (const auto& [rank, ratios] : fresh_ratios) {
    gate_row row = straggler_row(what, rank_label(rank, fresh, fresh), fraction);
    // A lost measurement makes the row unknown whatever the other trials say; so does a card the
    // ranks time-sliced, for times (an Ir count is the rank's own on any card).
    // A row with samples is judged whatever why_unknown says, so a refused row gets none.
    const bool refused = !what.exact && !sharing.empty();
    row.why_unknown = refused ? sharing : ratios.lost;
    if (row.why_unknown.empty()) {
      for (const auto& one : ratios.seen) {
        row.base.push_back(1.0);
        row.fresh.push_back(one.ratio);
      }
      row.attribution = attribution;
    }
    rows.push_back(std::move(row));
  }
}

}  // namespace

std::vector<gate_row> straggler_rows(const measured_test& fresh, const measured_test* base,
                                     double fraction) {
  std::vector<gate_row> rows;
  if (fresh.ranks.empty()) return rows;
  bool any_peers = false;
  for (std::size_t trial = 0; trial < fresh.trials.size(); ++trial) {
    any_peers = any_peers || ranks_in_trial(fresh, trial).size() >= 2;
  }
  if (!any_peers) {
    gate_row alone;
    alone.label = "straggler";
    alone.why_unknown =
        "no trial has two ranks that measured something, so no rank has peers to "
        "be compared with (check the launcher's rank count and the ranks' captures)";
    rows.push_back(std::move(alone));
    return rows;
  }
  const std::string sharing = unserialized_card_sharing(fresh);
  for (const auto& what : quantities_of(fresh))
    add_quantity_rows(fresh, base, what, fraction, sharing, rows);
  return rows;
}

// Slow = a ratio above the threshold. "card": every slow observation is on one card, every
// observation on that card is slow, and two or more ranks ran on it. "work": the slow observations
// span two or more cards (the slowness follows the rank's work, not a card; named by rank when one
// rank is slow on every card it landed on), or another rank ran fast on the slow rank's card.
// Otherwise the slow rank had its card to itself and the two cannot be told apart.
std::string attribute_straggler(const std::vector<straggler_observation>& seen, double threshold) {
  std::set<std::string> slow_cards;
  std::set<int> slow_ranks;
  for (const auto& one : seen) {
    if (one.ratio <= threshold) continue;
    if (one.card.empty()) return "";  // a card not known: no attribution at all
    slow_cards.insert(one.card);
    slow_ranks.insert(one.rank);
  }
  if (slow_cards.empty()) return "";
  if (slow_cards.size() >= 2) {
    for (const int rank : slow_ranks) {
      std::set<std::string> cards;
      bool always_slow = true;
      for (const auto& one : seen) {
        if (one.rank != rank) continue;
        cards.insert(one.card);
        always_slow = always_slow && one.ratio > threshold;
      }
      if (always_slow && cards.size() >= 2) {
        return fmt::format("work: rank {} is slow on every card it ran on ({})", rank,
                           fmt::join(cards, ", "));
      }
    }
    return fmt::format("work: the slow trials ran on {} different cards ({}), so no card is slow "
                       "for every rank on it",
                       slow_cards.size(), fmt::join(slow_cards, ", "));
  }
  const std::string& card = *slow_cards.begin();
  std::set<int> ranks_on_card;
  std::set<int> fast_on_card;
  for (const auto& one : seen) {
    if (one.card != card) continue;
    ranks_on_card.insert(one.rank);
    if (one.ratio <= threshold) fast_on_card.insert(one.rank);
  }
  if (fast_on_card.empty() && ranks_on_card.size() >= 2) {
    return fmt::format("card: {} is slow for every rank that ran on it (ranks {})", card,
                       fmt::join(ranks_on_card, ", "));
  }
  std::set<int> fast_others;
  for (const int rank : fast_on_card) {
    if (!slow_ranks.contains(rank)) fast_others.insert(rank);
  }
  if (!fast_others.empty()) {
    return fmt::format("work: rank(s) {} slow on {}, where rank(s) {} were not",
                       fmt::join(slow_ranks, ", "), card, fmt::join(fast_others, ", "));
  }
  return fmt::format("work or card: rank(s) {} were slow only on {}, and no other rank ran there "
                     "to tell the two apart",
                     fmt::join(slow_ranks, ", "), card);
}

}  // namespace aorta::detail
