// Sweep outputs read into history runs (`aorta history add`): every result.json under the
// directories given, through the bounded input layer, grouped into one run per test directory
// (the directory holding trial_<n>/), with every numeric sample of every trial.
#pragma once

#include "history/history_store.hpp"

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace aorta::detail {

// Bounds of one add: deeper trees, more files or more samples are refused with the file and the
// fix (add the directories in parts), never skipped.
inline constexpr int max_history_tree_depth = 4;  // ROOT/<test>/<cell>/trial_<n>/result.json
inline constexpr std::size_t max_history_result_files = 100'000;
inline constexpr std::size_t max_history_samples = 10'000'000;

// Where the runs of one add come from: the commit they measured and when it was made.
struct ingest_context {
  std::string commit;
  std::string branch;
  std::string time;  // ISO 8601 UTC; "" takes each run's earliest trial start
  std::int64_t time_unix = 0;
};

// One run per test directory under each of `directories`, in path order. Throws aorta::error
// (exit 1) naming the file for a damaged or hostile result.json, a non-finite sample, a quantity
// named twice in one trial, or a tree past the bounds above; and when a directory holds no
// result.json at all.
[[nodiscard]] std::vector<history_run>
read_history_runs(const std::vector<std::filesystem::path>& directories,
                  const ingest_context& context);

// The unit of a quantity by its name: "ms" (`*_ms`, `time_ms(...)`), "count" (`*_count`,
// `count(...)`), "cycles" (`*cycles*`), "Ir" (`callgrind_*ir*`), "s" (`*_seconds`), else "".
[[nodiscard]] std::string quantity_unit(const std::string& quantity);

}  // namespace aorta::detail
