#include "captures/csv_kernel_table.hpp"

#include "checked_sum.hpp"

#include "aorta/error.hpp"
#include "text_trim.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <charconv>
#include <cmath>
#include <cstring>

namespace aorta::detail {

std::optional<double> parse_double(std::string_view field) noexcept {
  field = trim(field, blanks);
  if (!field.empty() && field.front() == '+') field.remove_prefix(1);
  if (field.empty()) return std::nullopt;
  double value = 0.0;
  const auto [end, ec] = std::from_chars(field.data(), field.data() + field.size(), value);
  if (ec == std::errc::result_out_of_range) {
    // from_chars leaves `value` alone on overflow; the field is a number, just not a finite one.
    return field.front() == '-' ? -HUGE_VAL : HUGE_VAL;
  }
  if (ec != std::errc{} || end != field.data() + field.size()) return std::nullopt;
  return value;
}

std::optional<std::uint64_t> parse_u64_trimmed(std::string_view field) noexcept {
  field = trim(field, blanks);
  if (field.empty()) return std::nullopt;
  std::uint64_t value = 0;
  const auto [end, ec] = std::from_chars(field.data(), field.data() + field.size(), value);
  if (ec != std::errc{} || end != field.data() + field.size()) return std::nullopt;
  return value;
}

void kernel_table::refuse(std::string_view name) noexcept {
  m_longest_refused_name = std::max(m_longest_refused_name, name.size());
}

void kernel_table::absorb(const kernel_table& later) {
  m_longest_refused_name = std::max(m_longest_refused_name, later.m_longest_refused_name);
  m_names_full = m_names_full || later.m_names_full;
  for (std::uint32_t id = 0; id < later.m_entries.size(); ++id) {
    entry* const e = entry_for(m_names.intern(later.m_names.name(id)));
    if (e == nullptr) continue;
    const entry& from = later.m_entries[id];
    fold(*e, from.total_ns, from.launches_known, from.launches, from.overflowed);
  }
}

std::vector<kernel_stat> kernel_table::sorted(std::string_view source) const {
  if (m_longest_refused_name > 0) {
    throw capture_error(fmt::format(
        "{}: a kernel name of {} bytes is longer than {} bytes (max_kernel_name_bytes), aorta's "
        "limit on one name; real kernel names are at most tens of KiB, so the capture is damaged: "
        "re-run the profiler",
        source, m_longest_refused_name, max_kernel_name_bytes));
  }
  if (m_names_full) {
    throw capture_error(fmt::format(
        "{}: the distinct kernel names total more than {} bytes, aorta's limit on one capture's "
        "names; aorta does not sum part of a capture. Fix: profile fewer distinct kernels per run",
        source, m_names.limit_bytes()));
  }
  std::vector<kernel_stat> out;
  out.reserve(m_entries.size());
  for (std::uint32_t id = 0; id < m_entries.size(); ++id) {
    const entry& e = m_entries[id];
    const std::string_view name = m_names.name(id);
    if (!std::isfinite(e.total_ns) || e.overflowed) {
      throw capture_error(fmt::format(
          "{}: the summed {} of kernel '{}' overflowed; the capture holds values too large to "
          "be real durations, so it is likely corrupt: re-run the profiler",
          source, e.overflowed ? "launch count" : "time", name));
    }
    kernel_stat k;
    k.name = std::string(name);
    k.total_ns = e.total_ns;
    if (e.launches_known) k.launches = e.launches;
    out.push_back(std::move(k));
  }
  std::sort(out.begin(), out.end(), [](const kernel_stat& a, const kernel_stat& b) {
    if (a.total_ns != b.total_ns) return a.total_ns > b.total_ns;
    return a.name < b.name;
  });
  return out;
}

}  // namespace aorta::detail
