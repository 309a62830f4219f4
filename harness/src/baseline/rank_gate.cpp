#include "baseline/rank_gate.hpp"

#include "baseline/shared_card.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace aorta::detail {
namespace {

bool has_samples(const measured_test& test, int rank) {
  const auto found = test.ranks.find(rank);
  if (found == test.ranks.end()) return false;
  for (const auto& trial : found->second.trials) {
    if (!trial.metrics.empty() || !trial.kernels.empty()) return true;
  }
  return false;
}

const rank_place* newest_place(const measured_test& test, int rank) {
  const auto found = test.ranks.find(rank);
  if (found == test.ranks.end()) return nullptr;
  const auto& places = found->second.places;
  for (auto place = places.rbegin(); place != places.rend(); ++place) {
    if (!place->host.empty() || !place->card.empty()) return &*place;
  }
  return nullptr;
}

// For a rank that ran on one card at once with others in a trial of `fresh` (and the recipe did
// not say they took it in turn): what its timed rows then measure, for the row's note.
std::string card_sharing_note(const measured_test& fresh, int rank) {
  if (fresh.ranks_serialized) return "";
  for (std::size_t trial = 0; trial < fresh.trials.size(); ++trial) {
    std::vector<rank_on_card> places;
    for (const auto& [other, series] : fresh.ranks) {
      if (trial >= series.trials.size() || trial >= series.places.size()) continue;
      const auto& snapshot = series.trials[trial];
      if (snapshot.kernels.empty() && snapshot.metrics.empty()) continue;
      places.push_back({other, series.places[trial].host, series.places[trial].card});
    }
    for (const auto& shared : shared_cards(places)) {
      std::vector<int> peers;
      for (const int other : shared.ranks) {
        if (other != rank) peers.push_back(other);
      }
      if (peers.size() == shared.ranks.size()) continue;
      return fmt::format("shared {} with rank(s) {} at once in trial {}, not serialized: its "
                         "times hold their time slices too",
                         shared.card, fmt::join(peers, ", "), trial);
    }
  }
  return "";
}

}  // namespace

std::string rank_label(int rank, const measured_test& base, const measured_test& fresh) {
  const rank_place* place = newest_place(fresh, rank);
  if (place == nullptr) place = newest_place(base, rank);
  if (place == nullptr) return fmt::format("rank {}", rank);
  // A UUID's first 8 hex digits name the card in a row that must stay short enough to read; the
  // whole UUID is in rank.json and result.json's ranks.
  constexpr std::size_t short_uuid = 12;  // "GPU-" + 8
  const std::string card = place->card.starts_with("GPU-") && place->card.size() > short_uuid
                               ? place->card.substr(0, short_uuid)
                               : place->card;
  std::string where = place->host;
  if (!card.empty()) where += (where.empty() ? "" : ", ") + card;
  return fmt::format("rank {} ({})", rank, where);
}

std::vector<gate_row> rank_rows_of(const measured_test& base, const measured_test& fresh,
                                   const row_builder& build) {
  std::vector<gate_row> rows;
  // A baseline from before per-rank series (or of a single process) has no ranks: the sum alone.
  if (base.ranks.empty() || fresh.ranks.empty()) return rows;
  if (base.ranks.size() < 2 && fresh.ranks.size() < 2) return rows;
  std::vector<int> ranks;
  for (const auto& [rank, series] : base.ranks) ranks.push_back(rank);
  for (const auto& [rank, series] : fresh.ranks) {
    if (!base.ranks.contains(rank)) ranks.push_back(rank);
  }
  for (const int rank : ranks) {
    const std::string label = rank_label(rank, base, fresh);
    const bool in_base = has_samples(base, rank);
    const bool in_fresh = has_samples(fresh, rank);
    if (!in_base || !in_fresh) {
      gate_row missing;
      missing.label = label;
      missing.why_unknown =
          in_base ? "the baseline has this rank but this run measured nothing on it (a rank "
                    "missing or empty in every trial)"
                  : "this run has this rank but the baseline does not (re-record the baseline "
                    "with this rank count: aorta baseline record)";
      rows.push_back(std::move(missing));
      continue;
    }
    const std::string sharing = card_sharing_note(fresh, rank);
    for (auto& row : build(rank_as_test(base, rank), rank_as_test(fresh, rank))) {
      row.label = label + ": " + row.label;
      if (!row.exact && row.attribution.empty()) row.attribution = sharing;
      rows.push_back(std::move(row));
    }
  }
  return rows;
}

}  // namespace aorta::detail
