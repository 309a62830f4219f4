#include "captures/rocpd_kernel_names.hpp"

#include "aorta/error.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <string_view>
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

// The dispatched kernel ids, sorted, each with the tree's index of its name once read.
class id_names {
public:
  static constexpr std::uint32_t unseen = UINT32_MAX;
  static constexpr std::uint32_t null_name = UINT32_MAX - 1;

  explicit id_names(const std::vector<dispatch_sum>& sums) {
    m_ids.reserve(sums.size());
    for (const dispatch_sum& sum : sums)
      if (!sum.kernel_null) m_ids.push_back(sum.kernel_value);
    std::sort(m_ids.begin(), m_ids.end());
    m_ids.erase(std::unique(m_ids.begin(), m_ids.end()), m_ids.end());
    m_ids.shrink_to_fit();
    m_kernels.assign(m_ids.size(), unseen);
  }
  [[nodiscard]] std::size_t size() const noexcept { return m_ids.size(); }
  // The slot of `id` (size() if no dispatch used it): unseen, null_name or the tree's index.
  [[nodiscard]] std::uint32_t* slot(std::int64_t id) {
    const auto at = std::lower_bound(m_ids.begin(), m_ids.end(), id);
    if (at == m_ids.end() || *at != id) return nullptr;
    return &m_kernels[static_cast<std::size_t>(at - m_ids.begin())];
  }

private:
  std::vector<std::int64_t> m_ids;       // sorted, distinct
  std::vector<std::uint32_t> m_kernels;  // parallel to m_ids
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
    std::uint32_t* const kernel = names.slot(sqlite3_column_int64(rows.get(), 0));
    if (kernel == nullptr || *kernel != id_names::unseen) continue;
    ++found;
    if (sqlite3_column_type(rows.get(), 1) == SQLITE_NULL) {
      *kernel = id_names::null_name;
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
    *kernel = tree.intern_kernel(name);
  }
}

// A tree index past the field's width would read back as another kernel's.
static_assert(max_distinct_kernels < dispatch_sum::unnamed,
              "dispatch_sum::tree_kernel must hold every frame tree kernel index");

}  // namespace

void name_dispatched_kernels(rocpd_database& db, std::vector<dispatch_sum>& sums,
                             const rocpd_limits& limits, frame_tree_builder& tree) {
  {
    id_names names(sums);
    if (names.size() == 0) return;
    // Room for every id's name up front: no doubling copy of the tree's tables at the read's peak.
    tree.reserve_kernels(names.size(), 0);
    scan_symbols(db, limits, names, tree);
    for (dispatch_sum& sum : sums) {
      const std::uint32_t* const kernel = sum.kernel_null ? nullptr : names.slot(sum.kernel_value);
      if (kernel == nullptr || *kernel == id_names::unseen || *kernel == id_names::null_name)
        continue;
      sum.tree_kernel = *kernel;
    }
  }
  // The ids' table is gone before the totals are made, so the two never meet at the peak.
  tree.end_naming();
}

}  // namespace aorta::detail
