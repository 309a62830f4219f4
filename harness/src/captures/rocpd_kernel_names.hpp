// The names of the kernel ids a rocpd database's dispatches used, read in one scan of
// rocpd_info_kernel_symbol after the sums: a point query per id cost more than the whole dispatch
// scan on captures of 80,000 distinct kernels, and ids that no dispatch used are not kept.
#pragma once

#include "captures/rocpd_database.hpp"
#include "captures/rocpd_dispatch_sums.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace aorta::detail {

class rocpd_kernel_names {
public:
  // Scans the symbol table once (under the database's budget); memory is one entry per distinct
  // kernel id of `sums`, whatever the table holds.
  rocpd_kernel_names(rocpd_database& db, const std::vector<dispatch_sum>& sums);

  // The kernel's name (display_name, else kernel_name); nullptr for a NULL id, an id without a
  // symbol row, or a row whose names are both NULL. The first row of an id wins.
  [[nodiscard]] const std::string* find(std::optional<std::int64_t> id) const;

private:
  struct entry {
    bool seen = false;
    std::optional<std::string> name;
  };
  std::unordered_map<std::int64_t, entry> m_by_id;
};

}  // namespace aorta::detail
