// The multi-rank part of a trial: reading every rank after the launch into the trial record.
#pragma once

#include "aorta/capture.hpp"
#include "aorta/recipe.hpp"
#include "aorta/trial_record.hpp"
#include "reporting/reporter.hpp"

#include <filesystem>
#include <optional>
#include <vector>

namespace aorta::detail {

// Reads the ranks (rank_reading.hpp); the summed captures become the trial's metrics and the
// captures plain checks read; `ranks` metric = ranks whose every capture is non-empty; the per-rank
// table goes into record.ranks. Any rank problem fails the trial, its reason naming the rank(s),
// unless the trial is already an error (an interrupted payload). A read stopped by an interrupt
// makes it one (record_interrupted_read) and returns no ranks.
// Returns the ranks for rank checks; `summed` receives the summed captures.
std::vector<rank_captures> record_rank_captures(const recipe& spec,
                                                const std::filesystem::path& trial_dir,
                                                std::optional<int> expected, trial_record& record,
                                                std::vector<capture>& summed,
                                                reporting::reporter& report,
                                                bool frames_needed = true);

}  // namespace aorta::detail
