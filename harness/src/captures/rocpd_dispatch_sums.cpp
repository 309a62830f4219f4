#include "captures/rocpd_dispatch_sums.hpp"

#include "aorta/error.hpp"

#include <algorithm>
#include <tuple>

#include <fmt/format.h>

namespace aorta::detail {

namespace {

std::optional<std::int64_t> integer_or_null(sqlite3_stmt* row, int column) {
  if (sqlite3_column_type(row, column) == SQLITE_NULL) return std::nullopt;
  return sqlite3_column_int64(row, column);
}

// Open addressing over the sums themselves: one 4-byte slot per place, the sums in one vector
// (no node per group to allocate and free; on 80,000 groups the node table's malloc and free
// cost as much as SQLite's scan).
class group_table {
public:
  explicit group_table(std::size_t max_groups) : m_max_groups(max_groups) { grow(1024); }

  // The sum of (kernel, agent), added when new; nullptr past max_groups.
  dispatch_sum* find_or_add(std::optional<std::int64_t> kernel, std::optional<std::int64_t> agent) {
    std::size_t at = hash(kernel, agent) & m_mask;
    while (m_slots[at] != empty) {
      dispatch_sum& sum = m_sums[m_slots[at]];
      if (sum.kernel_id == kernel && sum.agent_key == agent) return &sum;
      at = (at + 1) & m_mask;
    }
    if (m_sums.size() >= m_max_groups) return nullptr;
    m_slots[at] = static_cast<std::uint32_t>(m_sums.size());
    dispatch_sum& added = m_sums.emplace_back();
    added.kernel_id = kernel;
    added.agent_key = agent;
    // At most half full, so a probe ends soon; pointers into m_sums stay valid until the next add.
    if (m_sums.size() * 2 > m_slots.size()) {
      grow(m_slots.size() * 2);
      return &m_sums.back();
    }
    return &added;
  }

  std::vector<dispatch_sum> take() { return std::move(m_sums); }

private:
  static constexpr std::uint32_t empty = UINT32_MAX;

  static std::size_t hash(std::optional<std::int64_t> kernel, std::optional<std::int64_t> agent) {
    const auto part = [](const std::optional<std::int64_t>& v) {
      return v ? static_cast<std::uint64_t>(*v) : std::uint64_t{0x9e3779b97f4a7c15};
    };
    // A multiplicative mix: kernel ids are often dense integers, which would cluster unmixed.
    std::uint64_t h = part(kernel) * 0x9e3779b97f4a7c15ULL ^ part(agent);
    h ^= h >> 29;
    h *= 0xbf58476d1ce4e5b9ULL;
    return static_cast<std::size_t>(h ^ (h >> 32));
  }

  void grow(std::size_t capacity) {
    m_slots.assign(capacity, empty);
    m_mask = capacity - 1;
    for (std::size_t i = 0; i < m_sums.size(); ++i) {
      std::size_t at = hash(m_sums[i].kernel_id, m_sums[i].agent_key) & m_mask;
      while (m_slots[at] != empty) at = (at + 1) & m_mask;
      m_slots[at] = static_cast<std::uint32_t>(i);
    }
  }

  std::size_t m_max_groups;
  std::vector<std::uint32_t> m_slots;
  std::size_t m_mask = 0;
  std::vector<dispatch_sum> m_sums;
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
  group_table groups(max_groups);
  // Consecutive dispatches often share their group: remember the last one (valid until an add).
  dispatch_sum* last = nullptr;
  while (db.step(rows)) {
    const std::optional<std::int64_t> kernel = integer_or_null(rows, 0);
    const std::optional<std::int64_t> agent = integer_or_null(rows, 1);
    if (last == nullptr || last->kernel_id != kernel || last->agent_key != agent) {
      last = groups.find_or_add(kernel, agent);
      if (last == nullptr)
        throw capture_error(fmt::format(
            "{}: rocpd database: more than {} distinct (kernel, agent) pairs "
            "(rocpd_max_groups); aorta does not sum part of a capture. Fix: profile fewer "
            "distinct kernels per run, or ask rocprofv3 for output_format: csv",
            db.file().string(), max_groups));
    }
    add_dispatch(*last, rows);
  }
  std::vector<dispatch_sum> out = groups.take();
  std::sort(out.begin(), out.end(), [](const dispatch_sum& a, const dispatch_sum& b) {
    return std::tie(a.agent_key, a.kernel_id) < std::tie(b.agent_key, b.kernel_id);
  });
  return out;
}

}  // namespace aorta::detail
