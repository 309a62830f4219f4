// Per-kernel sums shared by the CSV readers (rocprofv3, ncu), and the number parsing they share.
#pragma once

#include "aorta/capture.hpp"
#include "captures/name_table.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace aorta::detail {

// A whole field as a number, surrounding blanks allowed; nullopt for anything else. "nan" and
// "inf" parse, so callers can tell an unreadable field from a non-finite one.
[[nodiscard]] std::optional<double> parse_double(std::string_view field) noexcept;
[[nodiscard]] std::optional<std::uint64_t> parse_u64(std::string_view field) noexcept;

// Longest kernel name aorta keeps. Demangled C++ template kernels reach tens of KiB; a name of
// megabytes is a damaged capture, and every copy of it (metrics, result.json, reports) costs.
inline constexpr std::size_t max_kernel_name_bytes = std::size_t{1} << 20;

class kernel_table {
public:
  // One source row: `ns` finite and >= 0; `launches` nullopt when the row's count is unknown,
  // which makes the kernel's count unknown for good. A name longer than max_kernel_name_bytes is
  // not kept and makes sorted() throw.
  void add(std::string_view name, double ns, std::optional<std::uint64_t> launches);

  [[nodiscard]] bool empty() const noexcept { return m_entries.empty(); }

  // Sorted by total_ns descending, ties by name. Throws capture_error naming `source` when a total
  // overflowed (not finite, or a launch count past 2^64) or a name was too long.
  [[nodiscard]] std::vector<kernel_stat> sorted(std::string_view source) const;

private:
  struct entry {
    double total_ns = 0.0;
    std::uint64_t launches = 0;
    bool launches_known = true;
    bool overflowed = false;
  };
  name_table m_names;            // kernel names, interned once each
  std::vector<entry> m_entries;  // by name id
  std::size_t m_longest_refused_name = 0;  // bytes; 0 when every name was kept
};

}  // namespace aorta::detail
