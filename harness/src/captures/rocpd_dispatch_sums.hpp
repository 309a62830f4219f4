// The kernel dispatches of a rocpd database summed per integer (kernel id, agent key), in one
// scan of the dispatch rows in table order. SQLite's GROUP BY sorts every row first (a temporary
// B-tree: four times the scan's time); a hash table over the integer ids costs one lookup per
// row and holds one entry per group, so memory stays flat whatever the file's size.
#pragma once

#include "captures/rocpd_database.hpp"

#include <compare>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <tuple>
#include <vector>

namespace aorta::detail {

// The identity of a (kernel, agent) group: a NULL id's value is 0 and its flag set.
struct group_key {
  std::int64_t kernel = 0;
  std::int64_t agent = 0;
  bool kernel_null = false;
  bool agent_null = false;
  auto operator<=>(const group_key&) const = default;
};

// One (kernel, agent) group: 32 bytes, since a capture of many distinct kernels holds one per
// kernel and agent (80,000 at 72 bytes each with std::optional ids were a fifth of the read's
// peak, and at 40 bytes they were the largest block beside the names). Counts of bad dispatches
// are rare and kept apart (dispatch_sums::first_bad).
struct dispatch_sum {
  std::int64_t kernel_value = 0;  // valid unless kernel_null
  std::int64_t agent_value = 0;   // valid unless agent_null
  std::int64_t total_ns = 0;      // valid when the group has no non-integer dispatch
  // Dispatches counted; a group of more than UINT32_MAX sets count_full instead of wrapping (the
  // default budget of SQLite steps ends a read long before).
  std::uint32_t launches = 0;
  // The frame tree's index of the kernel's name once name_dispatched_kernels found it, else
  // unnamed. Bit-fields keep the group at 32 bytes: an index below 2^27 covers every tree
  // (max_distinct_kernels is checked against it where the index is stored).
  std::uint32_t tree_kernel : 27 = unnamed;
  std::uint32_t kernel_null : 1 = 0;   // the dispatches' kernel_id is NULL
  std::uint32_t agent_null : 1 = 0;    // agent_id or track_id is NULL
  std::uint32_t overflowed : 1 = 0;    // total_ns went past int64
  std::uint32_t count_full : 1 = 0;    // launches went past UINT32_MAX
  std::uint32_t has_problems : 1 = 0;  // some dispatches cannot be summed (dispatch_problems)

  static constexpr std::uint32_t unnamed = (1U << 27) - 1;

  [[nodiscard]] bool named() const { return tree_kernel != unnamed; }
  [[nodiscard]] std::optional<std::int64_t> agent_key() const {
    return agent_null ? std::nullopt : std::optional<std::int64_t>(agent_value);
  }
  [[nodiscard]] group_key key() const {
    return {kernel_value, agent_value, kernel_null != 0, agent_null != 0};
  }
};

static_assert(sizeof(dispatch_sum) == 32, "one group per kernel and agent: keep it packed");

// One more dispatch of the group: counted, or count_full once launches is UINT32_MAX.
inline void count_dispatch(dispatch_sum& sum) {
  if (sum.launches == UINT32_MAX)
    sum.count_full = 1;
  else
    ++sum.launches;
}

// A group's dispatches that cannot be summed.
struct dispatch_problems {
  std::uint64_t negative = 0;     // dispatches whose end < start
  std::uint64_t non_integer = 0;  // dispatches with a NULL, text or real start or end
};

// The order the reader checks the groups in and makes the agents' frames in: by agent key, then
// kernel id, NULLs first (a NULL's value is 0, so its flag decides).
[[nodiscard]] inline auto check_order(const group_key& key) {
  return std::make_tuple(!key.agent_null, key.agent, !key.kernel_null, key.kernel);
}

struct dispatch_sums {
  std::vector<dispatch_sum> groups;  // exactly sized
  // The bad dispatches of the first group with any, in check_order: the reader stops at that
  // group, so its counts are all an error names. One group's counts, whatever a hostile file
  // holds (counts per group were the largest part of a read of 4,000,000 bad groups).
  struct first_problems {
    group_key key;
    dispatch_problems counts;
  };
  std::optional<first_problems> first_bad;

  // The counts of `sum`, which has no problems or comes no later in check_order than the first
  // group that has; an internal error otherwise (the reader stopped at that group).
  [[nodiscard]] dispatch_problems problems_of(const dispatch_sum& sum) const;
};

// Steps `rows` (kernel_id, agent key, start, end per dispatch) to the end; the sums come in the
// order their groups were first seen (name_dispatched_kernels sorts them, by kernel id for its
// scan and then with order_by_agent). Throws capture_error past `max_groups` pairs
// (rocpd_limits::max_groups).
[[nodiscard]] dispatch_sums sum_dispatches(rocpd_database& db, sqlite3_stmt* rows,
                                           std::size_t max_groups);

// Sorts the groups in check_order.
void order_by_agent(std::vector<dispatch_sum>& groups);

}  // namespace aorta::detail
