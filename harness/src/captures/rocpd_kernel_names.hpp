// The names of the kernel ids a rocpd database's dispatches used, read in one scan of
// rocpd_info_kernel_symbol after the sums: a point query per id cost more than the whole dispatch
// scan on captures of 80,000 distinct kernels, and ids that no dispatch used are not kept. The
// names go straight into the frame tree's kernel table, so each lives once: a copy of its own
// beside the tree's was a fifth of the read's peak memory.
#pragma once

#include "captures/frame_tree.hpp"
#include "captures/rocpd_database.hpp"
#include "captures/rocpd_dispatch_sums.hpp"
#include "captures/rocpd_reader.hpp"

#include <vector>

namespace aorta::detail {

// Scans the symbol table once (under the database's budget) and interns the name of each kernel
// id of `sums` in `tree` (frame_tree_builder::intern_kernel): display_name, else kernel_name,
// the first row of an id winning. Each group whose kernel has a name then holds the tree's
// kernel index (dispatch_sum::tree_kernel); a NULL id, an id without a symbol row and a row
// whose names are both NULL leave the group unnamed. The groups are sorted by kernel id for the
// scan and come back in order_by_agent's order; no table of ids is held beside them, whatever
// the symbol table holds. More than limits.max_groups rows read, or names kept past
// limits.max_name_bytes, are capture errors naming the file and the bound.
void name_dispatched_kernels(rocpd_database& db, std::vector<dispatch_sum>& sums,
                             const rocpd_limits& limits, frame_tree_builder& tree);

}  // namespace aorta::detail
