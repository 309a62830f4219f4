// Per-kernel sums shared by the CSV readers (rocprofv3, ncu), and the number parsing they share.
#pragma once

#include "aorta/capture.hpp"
#include "checked_sum.hpp"
#include "captures/name_table.hpp"

#include <bit>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace aorta::detail {

// A whole field as a number, surrounding blanks allowed; nullopt for anything else. "nan" and
// "inf" parse, so callers can tell an unreadable field from a non-finite one.
[[nodiscard]] std::optional<double> parse_double(std::string_view field) noexcept;
// parse_u64's path for fields that are not 1 to 19 plain digits: blanks, a sign, 20 digits.
[[nodiscard]] std::optional<std::uint64_t> parse_u64_trimmed(std::string_view field) noexcept;

// Eight ASCII digits, first digit in the lowest byte, as their value; nullopt when any byte is
// not a digit. A timestamp has 10 to 19 digits, and a multiply per four of them beats one per
// digit.
inline std::optional<std::uint64_t> eight_digits(const char* text) noexcept {
  std::uint64_t word = 0;
  std::memcpy(&word, text, 8);
  const std::uint64_t values = word - 0x3030303030303030;
  // Each byte 0..9: subtracting '0' did not borrow (high nibble 0) and adding 6 does not carry.
  if (((values | (values + 0x0606060606060606)) & 0xF0F0F0F0F0F0F0F0) != 0) return std::nullopt;
  const std::uint64_t pairs = (values * 10 + (values >> 8)) & 0x00FF00FF00FF00FF;
  const std::uint64_t quads = (pairs * 100 + (pairs >> 16)) & 0x0000FFFF0000FFFF;
  return (quads * 10000 + (quads >> 32)) & 0xFFFFFFFF;
}

// `value` times 10^8 plus the eight ASCII digits at `text`; false (value unspecified) when any
// byte is not a digit.
[[gnu::always_inline]] inline bool append_eight_digits(const char* text,
                                                       std::uint64_t& value) noexcept {
  const std::optional<std::uint64_t> eight = eight_digits(text);
  value = value * 100000000 + eight.value_or(0);
  return eight.has_value();
}

// Inline: a kernel trace parses two timestamps per row, and the call cost as much as the digits.
inline std::optional<std::uint64_t> parse_u64(std::string_view field) noexcept {
  // Nineteen digits or fewer cannot overflow: the common field, without trimming or from_chars.
  const std::size_t size = field.size();
  if (size != 0 && size <= 19) {
    const char* const text = field.data();
    std::uint64_t value = 0;
    std::size_t i = 0;
    bool digits = true;
    if constexpr (std::endian::native == std::endian::little) {
      // At most two steps of eight, written out: a loop around them cost more than the digits.
      if (size >= 8) {
        digits = append_eight_digits(text, value);
        i = 8;
      }
      if (digits && size >= 16) {
        digits = append_eight_digits(text + 8, value);
        i = 16;
      }
    }
    for (; digits && i < size; ++i) {
      const auto digit = static_cast<unsigned>(static_cast<unsigned char>(text[i]) - '0');
      digits = digit <= 9;
      value = value * 10 + digit;
    }
    if (digits) return value;
  }
  return parse_u64_trimmed(field);
}

// Longest kernel name aorta keeps. Demangled C++ template kernels reach tens of KiB; a name of
// megabytes is a damaged capture, and every copy of it (metrics, result.json, reports) costs.
inline constexpr std::size_t max_kernel_name_bytes = std::size_t{1} << 20;

class kernel_table {
public:
  // `name_bytes` below name_table::max_bytes is for tests of what happens past the names' limit.
  explicit kernel_table(std::size_t name_bytes = name_table::max_bytes) : m_names(name_bytes) {}

  // One source row: `ns` finite and >= 0; `launches` nullopt when the row's count is unknown,
  // which makes the kernel's count unknown for good. A name longer than max_kernel_name_bytes is
  // not kept and makes sorted() throw.
  // Inline into the reader: a kernel trace adds one row per dispatch.
  [[gnu::always_inline]] void add(std::string_view name, double ns,
                                  std::optional<std::uint64_t> launches) {
    if (name.size() > max_kernel_name_bytes) [[unlikely]] {
      refuse(name);
      return;
    }
    entry* const e = entry_for(m_names.intern(name));
    if (e == nullptr) [[unlikely]]
      return;
    fold(*e, ns, launches.has_value(), launches.value_or(0), false);
  }

  // Adds what `later` holds, as if its rows had been added after this table's: the part of a file
  // read on another thread (csv_parts.hpp). Totals are sums of whole nanoseconds, exact below
  // 2^53 ns (104 days), so the order of adding does not change them.
  void absorb(const kernel_table& later);

  [[nodiscard]] bool empty() const noexcept { return m_entries.empty(); }

  // Sorted by total_ns descending, ties by name. Throws capture_error naming `source` when a total
  // overflowed (not finite, or a launch count past 2^64), a name was too long, or the distinct
  // names totalled more than name_table::max_bytes.
  [[nodiscard]] std::vector<kernel_stat> sorted(std::string_view source) const;

private:
  struct entry;

  void refuse(std::string_view name) noexcept;
  // The entry of name `id`, made when the name is new; nullptr, with the table marked full, when
  // the name did not fit (name_table::full).
  [[gnu::always_inline]] entry* entry_for(std::uint32_t id) {
    if (id == name_table::full) [[unlikely]] {
      m_names_full = true;
      return nullptr;
    }
    if (id == m_entries.size()) m_entries.emplace_back();
    return &m_entries[id];
  }
  // Adds a row's or a part's counts to `into`: an unknown launch count makes it unknown for good,
  // and a sum past max_count marks it overflowed.
  [[gnu::always_inline]] static void fold(entry& into, double ns, bool launches_known,
                                          std::uint64_t launches, bool overflowed) noexcept {
    into.total_ns += ns;
    into.overflowed = into.overflowed || overflowed;
    if (!launches_known) {
      into.launches_known = false;
    } else if (into.launches_known) {
      if (launches > max_count || into.launches > max_count - launches) into.overflowed = true;
      into.launches += launches;
    }
  }

  struct entry {
    double total_ns = 0.0;
    std::uint64_t launches = 0;
    bool launches_known = true;
    bool overflowed = false;
  };
  name_table m_names;                      // kernel names, interned once each
  std::vector<entry> m_entries;            // by name id
  std::size_t m_longest_refused_name = 0;  // bytes; 0 when every name was kept
  bool m_names_full = false;  // a name was refused past the table's limit on all names' bytes
};

}  // namespace aorta::detail
