// The names of the kernel ids a rocpd database's dispatches used, read in one scan of
// rocpd_info_kernel_symbol after the sums: a point query per id cost more than the whole dispatch
// scan on captures of 80,000 distinct kernels, and ids that no dispatch used are not kept.
#pragma once

#include "captures/rocpd_database.hpp"
#include "captures/rocpd_dispatch_sums.hpp"
#include "captures/rocpd_reader.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace aorta::detail {

class rocpd_kernel_names {
public:
  // Scans the symbol table once (under the database's budget); memory is a sorted id, a place
  // and the name's bytes per distinct kernel id of `sums` (no string or map node per kernel),
  // whatever the table holds. More than limits.max_groups rows read, or names kept past
  // limits.max_name_bytes, are capture errors naming the file and the bound. Read last of the big
  // scans, it gives the page cache back (rocpd_database::release_cache).
  rocpd_kernel_names(rocpd_database& db, const std::vector<dispatch_sum>& sums,
                     const rocpd_limits& limits);

  // The kernel's name (display_name, else kernel_name); nullopt for a NULL id, an id without a
  // symbol row, or a row whose names are both NULL. The first row of an id wins. Valid while
  // this object lives.
  [[nodiscard]] std::optional<std::string_view> find(std::optional<std::int64_t> id) const;

  // How many ids were asked for, and the bytes of the names found.
  [[nodiscard]] std::size_t size() const noexcept { return m_ids.size(); }
  [[nodiscard]] std::size_t name_bytes() const noexcept { return m_bytes.size(); }

private:
  // Where id i's name lies in m_bytes; `unseen` until its symbol row is read, `null_name` when
  // the row's names are both NULL.
  struct name_place {
    std::size_t start = unseen;
    std::size_t size = 0;
  };
  static constexpr std::size_t unseen = SIZE_MAX;
  static constexpr std::size_t null_name = SIZE_MAX - 1;

  [[nodiscard]] std::size_t index_of(std::int64_t id) const;

  std::vector<std::int64_t> m_ids;  // sorted, distinct
  std::vector<name_place> m_places;  // parallel to m_ids
  std::string m_bytes;               // every name, back to back
};

}  // namespace aorta::detail
