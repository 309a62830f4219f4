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

struct dispatch_sum {
  std::optional<std::int64_t> kernel_id;  // nullopt: the dispatch's kernel_id is NULL
  std::optional<std::int64_t> agent_key;  // agent_id or track_id; nullopt: NULL
  std::uint64_t launches = 0;
  std::int64_t total_ns = 0;        // valid when non_integer == 0
  std::uint64_t negative = 0;       // dispatches whose end < start
  std::uint64_t non_integer = 0;    // dispatches with a NULL, text or real start or end
  bool overflowed = false;          // total_ns went past int64
};

// Steps `rows` (kernel_id, agent key, start, end per dispatch) to the end; the sums come ordered
// by agent key, then kernel id, NULLs first. Throws capture_error past `max_groups` pairs
// (rocpd_limits::max_groups).
[[nodiscard]] std::vector<dispatch_sum> sum_dispatches(rocpd_database& db, sqlite3_stmt* rows,
                                                       std::size_t max_groups);

}  // namespace aorta::detail
