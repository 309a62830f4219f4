// The order the cells' trials run in: one trial of every cell per round, the cells shuffled anew
// each round, until every cell has its trials. Never all of A then all of B: a drift of the card
// or the machine during the run (clocks, temperature, another job) then lands on every cell alike,
// and round r of cell A and round r of cell B saw nearly the same state, which is what the paired
// confound verdict relies on.
#pragma once

#include <cstdint>
#include <vector>

namespace aorta::detail {

struct scheduled_trial {
  std::size_t cell = 0;  // index into the cells
  int round = 0;         // 0-based; the trial index within its cell
  int position = 0;      // 0-based place within the round
};

// `trials[i]`: how many trials cell i runs (each >= 1). A cell with fewer trials than the others
// sits out the later rounds. The shuffle is a Fisher-Yates driven by std::mt19937_64(seed), which
// the C++ standard defines bit for bit, so one seed gives one order on every platform.
[[nodiscard]] std::vector<scheduled_trial> interleaved_schedule(const std::vector<int>& trials,
                                                                std::uint64_t seed);

}  // namespace aorta::detail
