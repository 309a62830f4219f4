// `aorta bisect` (docs/bisect.md): the first commit of a range whose build shows the regression
// that the range's ends show, found by binary search with one cells run per step.
#pragma once

#include "reporting/reporter.hpp"

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace aorta::detail {

struct bisect_request {
  std::filesystem::path repository = ".";
  std::string good;
  std::string bad;
  std::string build;  // run as `sh -c BUILD` in each commit's worktree
  std::filesystem::path recipe;
  std::filesystem::path output;
  std::vector<std::string> command;  // run from each commit's worktree
  std::vector<std::string> quantities;
  std::string gate;
  std::optional<double> threshold;
  std::optional<int> rounds;
  std::optional<int> max_rounds;
  std::optional<std::uint64_t> seed;
};

// The exit code: 0 a culprit named; 1 the range does not reproduce the regression, a step could
// not be separated, or an end does not build; 128 + signal when interrupted (resumable). Throws
// usage_error (64) for what the user must fix before anything is built.
[[nodiscard]] int run_bisect(const bisect_request& request, reporting::reporter& report);

}  // namespace aorta::detail
