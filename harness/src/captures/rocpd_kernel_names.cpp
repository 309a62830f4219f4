#include "captures/rocpd_kernel_names.hpp"

namespace aorta::detail {

rocpd_kernel_names::rocpd_kernel_names(rocpd_database& db, const std::vector<dispatch_sum>& sums) {
  m_by_id.reserve(sums.size());
  for (const dispatch_sum& sum : sums)
    if (sum.kernel_id) m_by_id.try_emplace(*sum.kernel_id);
  if (m_by_id.empty()) return;
  rocpd_stmt rows = db.prepare("SELECT id, COALESCE(NULLIF(display_name, ''), kernel_name) FROM "
                               "rocpd_info_kernel_symbol");
  std::size_t found = 0;
  while (found < m_by_id.size() && db.step(rows.get())) {
    // Symbol ids are the table's integer primary key; a text or real one names no kernel_id.
    if (sqlite3_column_type(rows.get(), 0) != SQLITE_INTEGER) continue;
    const auto known = m_by_id.find(sqlite3_column_int64(rows.get(), 0));
    if (known == m_by_id.end() || known->second.seen) continue;
    known->second.seen = true;
    ++found;
    if (sqlite3_column_type(rows.get(), 1) != SQLITE_NULL)
      known->second.name = rocpd_database::text(rows.get(), 1);
  }
}

const std::string* rocpd_kernel_names::find(std::optional<std::int64_t> id) const {
  if (!id) return nullptr;
  const auto known = m_by_id.find(*id);
  if (known == m_by_id.end() || !known->second.name) return nullptr;
  return &*known->second.name;
}

}  // namespace aorta::detail
