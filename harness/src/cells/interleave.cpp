#include "cells/interleave.hpp"

#include <algorithm>
#include <random>

namespace aorta::detail {

std::vector<scheduled_trial> interleaved_schedule(const std::vector<int>& trials,
                                                  std::uint64_t seed) {
  std::mt19937_64 engine(seed);
  const int rounds = trials.empty() ? 0 : *std::max_element(trials.begin(), trials.end());
  std::vector<scheduled_trial> schedule;
  for (int round = 0; round < rounds; ++round) {
    std::vector<std::size_t> cells;
    for (std::size_t i = 0; i < trials.size(); ++i) {
      if (trials[i] > round) cells.push_back(i);
    }
    // std::shuffle's use of the engine is left to each standard library; this one is not.
    for (std::size_t i = cells.size(); i > 1; --i) {
      const auto pick = static_cast<std::size_t>(engine() % i);
      std::swap(cells[i - 1], cells[pick]);
    }
    for (std::size_t position = 0; position < cells.size(); ++position) {
      schedule.push_back(scheduled_trial{cells[position], round, static_cast<int>(position)});
    }
  }
  return schedule;
}

}  // namespace aorta::detail
