// The kernel dispatches of a rocpd database summed per integer (kernel id, agent key), in one
// scan of the dispatch rows in table order. SQLite's GROUP BY sorts every row first (a temporary
// B-tree: four times the scan's time); a hash table over the integer ids costs one lookup per
// row and holds one entry per group, so memory stays flat whatever the file's size.
#pragma once

#include "captures/rocpd_database.hpp"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

namespace aorta::detail {

// One (kernel, agent) group: 40 bytes, since a capture of many distinct kernels holds one per
// kernel and agent (80,000 at 72 bytes each with std::optional ids were a fifth of the read's
// peak). Counts of bad dispatches are rare and kept apart (dispatch_sums::problems).
struct dispatch_sum {
  static constexpr std::uint32_t no_problems = UINT32_MAX;

  std::int64_t kernel_value = 0;  // valid unless kernel_null
  std::int64_t agent_value = 0;   // valid unless agent_null
  std::uint64_t launches = 0;
  std::int64_t total_ns = 0;            // valid when the group has no non-integer dispatch
  std::uint32_t problems = no_problems;  // index into dispatch_sums::problems, if any
  bool kernel_null = false;             // the dispatches' kernel_id is NULL
  bool agent_null = false;              // agent_id or track_id is NULL
  bool overflowed = false;              // total_ns went past int64
  // kernel_value is no longer the kernel id but the frame tree's index of the kernel's name
  // (name_dispatched_kernels).
  bool named = false;

  [[nodiscard]] std::optional<std::int64_t> agent_key() const {
    return agent_null ? std::nullopt : std::optional<std::int64_t>(agent_value);
  }
};

static_assert(sizeof(dispatch_sum) <= 40, "one group per kernel and agent: keep it packed");

// A group's dispatches that cannot be summed.
struct dispatch_problems {
  std::uint64_t negative = 0;     // dispatches whose end < start
  std::uint64_t non_integer = 0;  // dispatches with a NULL, text or real start or end
};

struct dispatch_sums {
  std::vector<dispatch_sum> groups;  // exactly sized
  std::vector<dispatch_problems> problems;

  [[nodiscard]] dispatch_problems problems_of(const dispatch_sum& sum) const {
    return sum.problems == dispatch_sum::no_problems ? dispatch_problems{}
                                                     : problems[sum.problems];
  }
};

// Steps `rows` (kernel_id, agent key, start, end per dispatch) to the end; the sums come ordered
// by agent key, then kernel id, NULLs first. Throws capture_error past `max_groups` pairs
// (rocpd_limits::max_groups).
[[nodiscard]] dispatch_sums sum_dispatches(rocpd_database& db, sqlite3_stmt* rows,
                                           std::size_t max_groups);

}  // namespace aorta::detail
