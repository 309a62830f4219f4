#include "captures/rocpd_dispatch_sums.hpp"

#include "aorta/error.hpp"
#include "captures/block_array.hpp"

#include <algorithm>
#include <stdexcept>

#include <fmt/format.h>

namespace aorta::detail {

namespace {

group_key key_of(sqlite3_stmt* row) {
  group_key key;
  key.kernel_null = sqlite3_column_type(row, 0) == SQLITE_NULL;
  if (!key.kernel_null) key.kernel = sqlite3_column_int64(row, 0);
  key.agent_null = sqlite3_column_type(row, 1) == SQLITE_NULL;
  if (!key.agent_null) key.agent = sqlite3_column_int64(row, 1);
  return key;
}

bool same_group(const dispatch_sum& sum, const group_key& key) {
  return sum.kernel_value == key.kernel && sum.agent_value == key.agent &&
         sum.kernel_null == key.kernel_null && sum.agent_null == key.agent_null;
}

// Open addressing over the sums themselves: one 4-byte slot per place, the sums in one array (no
// node per group to allocate and free; on 80,000 groups the node table's malloc and free cost as
// much as SQLite's scan). A block_array, not a doubling vector: its old and new arrays were 7.9 MB
// of an 80,000-kernel read's peak, and a sum stays where it is.
class group_table {
public:
  explicit group_table(std::size_t max_groups) : m_max_groups(max_groups) { grow(1024); }

  // The sum of the key's group, added when new; nullptr past max_groups.
  dispatch_sum* find_or_add(const group_key& key) {
    std::size_t at = hash(key.kernel_null, key.kernel, key.agent_null, key.agent) & m_mask;
    while (m_slots[at] != empty) {
      dispatch_sum& sum = m_sums[m_slots[at]];
      if (same_group(sum, key)) return &sum;
      at = (at + 1) & m_mask;
    }
    const std::size_t count = m_sums.size();
    if (count >= m_max_groups) return nullptr;
    m_slots[at] = static_cast<std::uint32_t>(count);
    m_sums.grow_to(count + 1);
    dispatch_sum& added = m_sums[count];
    added.kernel_value = key.kernel;
    added.agent_value = key.agent;
    added.kernel_null = key.kernel_null;
    added.agent_null = key.agent_null;
    // At most half full, so a probe ends soon.
    if (m_sums.size() * 2 > m_slots.size()) grow(m_slots.size() * 2);
    return &added;
  }

  // The sums, in a vector of their exact size; each block is freed once copied.
  std::vector<dispatch_sum> take() {
    // Fresh vectors, not `= {}`, which assigns an empty list and keeps the capacity.
    m_slots = std::vector<std::uint32_t>();
    std::vector<dispatch_sum> out;
    out.reserve(m_sums.size());
    m_sums.take_each([&out](const dispatch_sum& sum) { out.push_back(sum); });
    return out;
  }

private:
  static constexpr std::uint32_t empty = UINT32_MAX;
  static std::size_t hash(bool kernel_null, std::int64_t kernel, bool agent_null,
                          std::int64_t agent) {
    const auto part = [](bool null, std::int64_t v) {
      return null ? std::uint64_t{0x9e3779b97f4a7c15} : static_cast<std::uint64_t>(v);
    };
    // A multiplicative mix: kernel ids are often dense integers, which would cluster unmixed.
    std::uint64_t h = part(kernel_null, kernel) * 0x9e3779b97f4a7c15ULL ^ part(agent_null, agent);
    h ^= h >> 29;
    h *= 0xbf58476d1ce4e5b9ULL;
    return static_cast<std::size_t>(h ^ (h >> 32));
  }

  void grow(std::size_t capacity) {
    m_slots.assign(capacity, empty);
    m_mask = capacity - 1;
    for (std::size_t i = 0; i < m_sums.size(); ++i) {
      const dispatch_sum& sum = m_sums[i];
      std::size_t at =
          hash(sum.kernel_null, sum.kernel_value, sum.agent_null, sum.agent_value) & m_mask;
      while (m_slots[at] != empty) at = (at + 1) & m_mask;
      m_slots[at] = static_cast<std::uint32_t>(i);
    }
  }

  std::size_t m_max_groups;
  std::vector<std::uint32_t> m_slots;
  std::size_t m_mask = 0;
  block_array<dispatch_sum> m_sums;
};

// Where a bad dispatch of `sum` is counted: the first group with problems in check_order, which
// an earlier one replaces; nullptr for a later group, whose counts no error will name.
dispatch_problems* problems_of(dispatch_sum& sum, dispatch_sums& sums) {
  sum.has_problems = 1;
  const group_key key = sum.key();
  auto& first = sums.first_bad;
  if (!first || check_order(key) < check_order(first->key))
    first = dispatch_sums::first_problems{key, {}};
  return first->key == key ? &first->counts : nullptr;
}

void add_dispatch(dispatch_sum& sum, sqlite3_stmt* row, dispatch_sums& sums) {
  count_dispatch(sum);
  if (sqlite3_column_type(row, 2) != SQLITE_INTEGER ||
      sqlite3_column_type(row, 3) != SQLITE_INTEGER) {
    if (dispatch_problems* counts = problems_of(sum, sums)) ++counts->non_integer;
    return;
  }
  const std::int64_t start = sqlite3_column_int64(row, 2);
  const std::int64_t end = sqlite3_column_int64(row, 3);
  std::int64_t duration = 0;
  if (__builtin_sub_overflow(end, start, &duration) ||
      __builtin_add_overflow(sum.total_ns, duration, &sum.total_ns))
    sum.overflowed = true;
  if (end < start) {
    if (dispatch_problems* counts = problems_of(sum, sums)) ++counts->negative;
  }
}

}  // namespace

dispatch_sums sum_dispatches(rocpd_database& db, sqlite3_stmt* rows, std::size_t max_groups) {
  group_table groups(max_groups);
  dispatch_sums out;
  // Consecutive dispatches often share their group: remember the last one.
  dispatch_sum* last = nullptr;
  while (db.step(rows)) {
    const group_key key = key_of(rows);
    if (last == nullptr || !same_group(*last, key)) {
      last = groups.find_or_add(key);
      if (last == nullptr)
        throw capture_error(fmt::format(
            "{}: rocpd database: more than {} distinct (kernel, agent) pairs "
            "(rocpd_max_groups); aorta does not sum part of a capture. Fix: profile fewer "
            "distinct kernels per run, or ask rocprofv3 for output_format: csv",
            db.file().string(), max_groups));
    }
    add_dispatch(*last, rows, out);
  }
  out.groups = groups.take();
  return out;
}

dispatch_problems dispatch_sums::problems_of(const dispatch_sum& sum) const {
  if (!sum.has_problems) return {};
  if (first_bad && first_bad->key == sum.key()) return first_bad->counts;
  throw std::logic_error("rocpd: a group with bad dispatches checked after the first such group");
}

void order_by_agent(std::vector<dispatch_sum>& groups) {
  std::sort(groups.begin(), groups.end(), [](const dispatch_sum& a, const dispatch_sum& b) {
    return check_order(a.key()) < check_order(b.key());
  });
}

}  // namespace aorta::detail
