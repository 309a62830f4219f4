#include "captures/rocpd_dispatch_sums.hpp"

#include "aorta/error.hpp"

#include <algorithm>
#include <functional>
#include <tuple>
#include <unordered_map>

#include <fmt/format.h>

namespace aorta::detail {

namespace {

std::optional<std::int64_t> integer_or_null(sqlite3_stmt* row, int column) {
  if (sqlite3_column_type(row, column) == SQLITE_NULL) return std::nullopt;
  return sqlite3_column_int64(row, column);
}

struct group_key {
  std::optional<std::int64_t> kernel;
  std::optional<std::int64_t> agent;
  bool operator==(const group_key&) const = default;
};

struct group_key_hash {
  std::size_t operator()(const group_key& key) const noexcept {
    const auto part = [](const std::optional<std::int64_t>& v) {
      return v ? std::hash<std::int64_t>{}(*v) : std::size_t{0x9e3779b97f4a7c15};
    };
    return part(key.kernel) * 31 + part(key.agent);
  }
};

void add_dispatch(dispatch_sum& sum, sqlite3_stmt* row) {
  ++sum.launches;
  if (sqlite3_column_type(row, 2) != SQLITE_INTEGER ||
      sqlite3_column_type(row, 3) != SQLITE_INTEGER) {
    ++sum.non_integer;
    return;
  }
  const std::int64_t start = sqlite3_column_int64(row, 2);
  const std::int64_t end = sqlite3_column_int64(row, 3);
  std::int64_t duration = 0;
  if (__builtin_sub_overflow(end, start, &duration) ||
      __builtin_add_overflow(sum.total_ns, duration, &sum.total_ns))
    sum.overflowed = true;
  if (end < start) ++sum.negative;
}

}  // namespace

std::vector<dispatch_sum> sum_dispatches(rocpd_database& db, sqlite3_stmt* rows,
                                           std::size_t max_groups) {
  std::unordered_map<group_key, dispatch_sum, group_key_hash> groups;
  // Consecutive dispatches often share their group: remember the last one.
  dispatch_sum* last = nullptr;
  while (db.step(rows)) {
    const group_key key{integer_or_null(rows, 0), integer_or_null(rows, 1)};
    if (last == nullptr || last->kernel_id != key.kernel || last->agent_key != key.agent) {
      auto [found, added] = groups.try_emplace(key);
      if (added) {
        if (groups.size() > max_groups)
          throw capture_error(fmt::format(
              "{}: rocpd database: more than {} distinct (kernel, agent) pairs "
              "(rocpd_max_groups); aorta does not sum part of a capture. Fix: profile fewer "
              "distinct kernels per run, or ask rocprofv3 for output_format: csv",
              db.file().string(), max_groups));
        found->second.kernel_id = key.kernel;
        found->second.agent_key = key.agent;
      }
      last = &found->second;
    }
    add_dispatch(*last, rows);
  }
  std::vector<dispatch_sum> out;
  out.reserve(groups.size());
  for (auto& [key, sum] : groups) out.push_back(sum);
  std::sort(out.begin(), out.end(), [](const dispatch_sum& a, const dispatch_sum& b) {
    return std::tie(a.agent_key, a.kernel_id) < std::tie(b.agent_key, b.kernel_id);
  });
  return out;
}

}  // namespace aorta::detail
