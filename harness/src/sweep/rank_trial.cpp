#include "sweep/rank_trial.hpp"

#include "aorta/metrics.hpp"
#include "evaluation/capture_evaluation.hpp"
#include "ranks/rank_reading.hpp"
#include "ranks/rank_rows.hpp"
#include "baseline/shared_card.hpp"
#include "record/verdict_rules.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace aorta::detail {
namespace {

// Ranks that ran on one card at once: said in the trial's notes, since it changes what every
// per-rank time means (baseline/shared_card.hpp).
void note_shared_cards(const std::vector<rank_captures>& ranks, bool serialized,
                       trial_record& record) {
  std::vector<rank_on_card> places;
  for (const auto& rank : ranks) places.push_back({rank.rank, rank.host, rank.card});
  const auto shared = shared_cards(places);
  if (shared.empty()) return;
  record.notes.push_back(
      serialized ? fmt::format("{}, taking it in turn while they measured (ranks_serialized: "
                               "true), so each rank's times are its own",
                               describe_shared_cards(shared))
                 : fmt::format("{} at once: each rank's kernel times hold its peers' time "
                               "slices, so timed straggler judgements over them are refused "
                               "(set ranks_serialized: true if the ranks take the card in turn)",
                               describe_shared_cards(shared)));
}

}  // namespace

std::vector<rank_captures> record_rank_captures(const recipe& spec,
                                                const std::filesystem::path& trial_dir,
                                                std::optional<int> expected, trial_record& record,
                                                std::vector<capture>& summed,
                                                reporting::reporter& report, bool frames_needed) {
  rank_reading reading =
      read_rank_captures(spec, trial_dir, expected, record.versions, frames_needed);
  if (reading.interrupted_by != 0) {
    record_interrupted_read(reading.interrupted_by, reading.interrupt, record);
    return {};
  }
  for (const auto& got : reading.summed) {
    merge_metrics(record.metrics, compute_metrics(got));
    for (const auto& note : got.notes) record.notes.push_back(fmt::format("{}: {}", got.collector, note));
  }
  record.metrics.values["ranks"] = static_cast<std::int64_t>(reading.complete);
  record.ranks = rank_rows(reading.ranks);
  record.ranks_serialized = spec.ranks_serialized;
  note_shared_cards(reading.ranks, spec.ranks_serialized, record);
  report.report(reporting::note_event{
      reporting::severity::info, fmt::format("{} of {} expected rank(s) wrote a non-empty capture",
                                             reading.complete, reading.expected)});
  if (!reading.problems.empty()) {
    record.notes.insert(record.notes.end(), reading.problems.begin(), reading.problems.end());
    // An interrupted payload's ranks are missing because of the interrupt: it stays an error.
    fail_unless_interrupted(record, fmt::format("{}", fmt::join(reading.problems, "; ")));
  }
  summed = std::move(reading.summed);
  return std::move(reading.ranks);
}

}  // namespace aorta::detail
