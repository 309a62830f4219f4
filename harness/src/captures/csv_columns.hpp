// The columns of a CSV file a reader uses. The scanner parses those and only counts the others:
// a rocprofv3 kernel trace has 22 columns and the reader needs four.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <initializer_list>

namespace aorta::detail {

class csv_columns {
public:
  static constexpr std::size_t none = static_cast<std::size_t>(-1);

  // Every column.
  csv_columns() = default;

  // Column 0 is always among them: a one-field row must show whether it is blank. A column past
  // the 64th makes it every column (a header that far is not a profiler's; correct, not fast).
  static csv_columns of(std::initializer_list<std::size_t> columns) noexcept {
    csv_columns wanted;
    wanted.m_mask = 1;
    std::size_t last = 0;
    for (const std::size_t column : columns) {
      if (column == none) continue;
      if (column >= 64) return csv_columns{};
      wanted.m_mask |= std::uint64_t{1} << column;
      last = column > last ? column : last;
    }
    wanted.m_kept = last + 1;
    return wanted;
  }

  [[nodiscard]] bool wants(std::size_t column) const noexcept {
    return column < 64 ? ((m_mask >> column) & 1) != 0 : m_mask == ~std::uint64_t{0};
  }
  // How many fields of a row the scanner hands over: the last wanted one and those before it,
  // which are empty unless wanted.
  [[nodiscard]] std::size_t kept() const noexcept { return m_kept; }
  // Bit i set: column i is wanted (all bits set for every column).
  [[nodiscard]] std::uint64_t bits() const noexcept { return m_mask; }
  // The first wanted column after `column`; none when there is none.
  [[nodiscard]] std::size_t next_after(std::size_t column) const noexcept {
    if (column >= 63) return m_mask == ~std::uint64_t{0} ? column + 1 : none;
    const std::uint64_t later = m_mask & (~std::uint64_t{0} << (column + 1));
    return later == 0 ? none : static_cast<std::size_t>(std::countr_zero(later));
  }

private:
  std::uint64_t m_mask = ~std::uint64_t{0};
  std::size_t m_kept = none;
};

}  // namespace aorta::detail
