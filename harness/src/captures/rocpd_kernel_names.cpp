#include "captures/rocpd_kernel_names.hpp"

#include "aorta/error.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace aorta::detail {

namespace {

[[noreturn]] void refuse(const rocpd_database& db, const std::string& past_the_bound) {
  throw capture_error(fmt::format(
      "{}: rocpd database: {}, aorta's limit on one rocpd read; rocprofv3 writes one symbol row "
      "per kernel and agent, so this table is endless or hostile. Fix: re-run the capture, or "
      "ask rocprofv3 for output_format: csv",
      db.file().string(), past_the_bound));
}

}  // namespace

rocpd_kernel_names::rocpd_kernel_names(rocpd_database& db, const std::vector<dispatch_sum>& sums,
                                       const rocpd_limits& limits) {
  m_ids.reserve(sums.size());
  for (const dispatch_sum& sum : sums)
    if (!sum.kernel_null) m_ids.push_back(sum.kernel_value);
  std::sort(m_ids.begin(), m_ids.end());
  m_ids.erase(std::unique(m_ids.begin(), m_ids.end()), m_ids.end());
  m_ids.shrink_to_fit();
  if (m_ids.empty()) return;
  m_places.resize(m_ids.size());
  rocpd_stmt rows = db.prepare("SELECT id, COALESCE(NULLIF(display_name, ''), kernel_name) FROM "
                               "rocpd_info_kernel_symbol");
  std::size_t found = 0;
  std::size_t rows_read = 0;
  while (found < m_ids.size() && db.step(rows.get())) {
    if (++rows_read > limits.max_groups)
      refuse(db, fmt::format("rocpd_info_kernel_symbol yields more than {} rows (rocpd_max_groups)",
                             limits.max_groups));
    // Symbol ids are the table's integer primary key; a text or real one names no kernel_id.
    if (sqlite3_column_type(rows.get(), 0) != SQLITE_INTEGER) continue;
    const std::size_t at = index_of(sqlite3_column_int64(rows.get(), 0));
    if (at == m_ids.size() || m_places[at].start != unseen) continue;
    ++found;
    if (sqlite3_column_type(rows.get(), 1) == SQLITE_NULL) {
      m_places[at].start = null_name;
      continue;
    }
    const auto* text = reinterpret_cast<const char*>(sqlite3_column_text(rows.get(), 1));
    // As rocpd_database::text: the name up to its first NUL.
    const std::string_view name = text == nullptr ? std::string_view() : std::string_view(text);
    if (name.size() > limits.max_name_bytes - m_bytes.size())
      refuse(db, fmt::format("the dispatched kernels' names total more than {} bytes "
                             "(rocpd_max_name_bytes)",
                             limits.max_name_bytes));
    m_places[at] = {m_bytes.size(), name.size()};
    m_bytes.append(name);
  }
  rows.reset();
  // The big scans are over: the page cache goes back before the names' exact-size copy, which
  // held both name buffers beside it at the read's peak.
  db.release_cache();
  m_bytes.shrink_to_fit();
}

std::size_t rocpd_kernel_names::index_of(std::int64_t id) const {
  const auto at = std::lower_bound(m_ids.begin(), m_ids.end(), id);
  if (at == m_ids.end() || *at != id) return m_ids.size();
  return static_cast<std::size_t>(at - m_ids.begin());
}

std::optional<std::string_view> rocpd_kernel_names::find(std::optional<std::int64_t> id) const {
  if (!id) return std::nullopt;
  const std::size_t at = index_of(*id);
  if (at == m_ids.size()) return std::nullopt;
  const name_place& place = m_places[at];
  if (place.start == unseen || place.start == null_name) return std::nullopt;
  return std::string_view(m_bytes).substr(place.start, place.size);
}

}  // namespace aorta::detail
