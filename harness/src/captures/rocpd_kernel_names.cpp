#include "captures/rocpd_kernel_names.hpp"

#include "aorta/error.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <utility>
#include <vector>

namespace aorta::detail {

namespace {

[[noreturn]] void refuse(const rocpd_database& db, const std::string& past_the_bound) {
  throw capture_error(fmt::format(
      "{}: rocpd database: {}, aorta's limit on one rocpd read; rocprofv3 writes one symbol row "
      "per kernel and agent, so this table is endless or hostile. Fix: re-run the capture, or "
      "ask rocprofv3 for output_format: csv",
      db.file().string(), past_the_bound));
}

// The dispatched kernel ids, found in the groups themselves, sorted by kernel id for the scan
// (NULL ids first): the first group of an id holds the id's state in its tree_kernel, so no table
// of ids is held beside the groups and the names (a sorted id and an index per id were 1 MB of an
// 80,000-kernel read's peak).
class id_names {
public:
  // An id whose symbol row names nothing (both names NULL); `unnamed` until a row is read.
  static constexpr std::uint32_t null_symbol = dispatch_sum::unnamed - 1;

  explicit id_names(std::vector<dispatch_sum>& sums) : m_sums(sums) {
    std::sort(m_sums.begin(), m_sums.end(), [](const dispatch_sum& a, const dispatch_sum& b) {
      return std::make_pair(!a.kernel_null, a.kernel_value) <
             std::make_pair(!b.kernel_null, b.kernel_value);
    });
    m_first_id = static_cast<std::size_t>(
        std::find_if(m_sums.begin(), m_sums.end(),
                     [](const dispatch_sum& sum) { return !sum.kernel_null; }) -
        m_sums.begin());
    for (std::size_t i = m_first_id; i < m_sums.size(); ++i)
      if (i == m_first_id || m_sums[i].kernel_value != m_sums[i - 1].kernel_value) ++m_ids;
  }
  [[nodiscard]] std::size_t size() const noexcept { return m_ids; }
  // The first group of `id`, whose tree_kernel is the id's state; nullptr if no dispatch used it.
  [[nodiscard]] dispatch_sum* first_of(std::int64_t id) {
    const auto at = std::lower_bound(
        m_sums.begin() + static_cast<std::ptrdiff_t>(m_first_id), m_sums.end(), id,
        [](const dispatch_sum& sum, std::int64_t value) { return sum.kernel_value < value; });
    return at == m_sums.end() || at->kernel_value != id ? nullptr : &*at;
  }
  // Gives every group of an id its first group's name (a null symbol: none).
  void spread_names() {
    std::uint32_t name = dispatch_sum::unnamed;
    for (std::size_t i = m_first_id; i < m_sums.size(); ++i) {
      dispatch_sum& sum = m_sums[i];
      if (i == m_first_id || sum.kernel_value != m_sums[i - 1].kernel_value)
        name = sum.tree_kernel == null_symbol ? dispatch_sum::unnamed : sum.tree_kernel;
      sum.tree_kernel = name;
    }
  }

private:
  std::vector<dispatch_sum>& m_sums;
  std::size_t m_first_id = 0;  // the first group with a non-NULL kernel id
  std::size_t m_ids = 0;       // distinct non-NULL kernel ids
};

void scan_symbols(rocpd_database& db, const rocpd_limits& limits, id_names& names,
                  frame_tree_builder& tree) {
  rocpd_stmt rows = db.prepare("SELECT id, COALESCE(NULLIF(display_name, ''), kernel_name) FROM "
                               "rocpd_info_kernel_symbol");
  std::size_t found = 0;
  std::size_t rows_read = 0;
  std::uint64_t name_bytes = 0;
  while (found < names.size() && db.step(rows.get())) {
    if (++rows_read > limits.max_groups)
      refuse(db, fmt::format("rocpd_info_kernel_symbol yields more than {} rows (rocpd_max_groups)",
                             limits.max_groups));
    // Symbol ids are the table's integer primary key; a text or real one names no kernel_id.
    if (sqlite3_column_type(rows.get(), 0) != SQLITE_INTEGER) continue;
    dispatch_sum* const first = names.first_of(sqlite3_column_int64(rows.get(), 0));
    if (first == nullptr || first->tree_kernel != dispatch_sum::unnamed) continue;
    ++found;
    if (sqlite3_column_type(rows.get(), 1) == SQLITE_NULL) {
      first->tree_kernel = id_names::null_symbol;
      continue;
    }
    const auto* text = reinterpret_cast<const char*>(sqlite3_column_text(rows.get(), 1));
    // As rocpd_database::text: the name up to its first NUL.
    const std::string_view name = text == nullptr ? std::string_view() : std::string_view(text);
    if (name.size() > limits.max_name_bytes - name_bytes)
      refuse(db, fmt::format("the dispatched kernels' names total more than {} bytes "
                             "(rocpd_max_name_bytes)",
                             limits.max_name_bytes));
    name_bytes += name.size();
    first->tree_kernel = tree.intern_kernel(name);
  }
}

// A tree index past the field's width would read back as another kernel's, or as a null symbol.
static_assert(max_distinct_kernels < id_names::null_symbol,
              "dispatch_sum::tree_kernel must hold every frame tree kernel index");

}  // namespace

void name_dispatched_kernels(rocpd_database& db, std::vector<dispatch_sum>& sums,
                             const rocpd_limits& limits, frame_tree_builder& tree) {
  id_names names(sums);
  if (names.size() != 0) {
    // Room for every id's name up front: no doubling copy of the tree's tables at the read's peak.
    tree.reserve_kernels(names.size(), 0);
    scan_symbols(db, limits, names, tree);
    names.spread_names();
    tree.end_naming();
  }
  order_by_agent(sums);
}

}  // namespace aorta::detail
