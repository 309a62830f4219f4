// The order and units of compute_metrics' kernel rows, for a writer that prints the rows of a
// capture straight from its kernels (`aorta check --json`) instead of holding them as rows.
#pragma once

#include "aorta/capture.hpp"

#include <cstddef>
#include <vector>

namespace aorta::detail {

inline constexpr double ns_per_ms = 1e6;

// The capture's kernels hottest first, equal times in the capture's order: the kernels
// themselves when they are in that order already (the frame-tree readers sort them so), else an
// index of them. On 80,000 kernels the index and stable_sort's buffer were a tenth of
// `check --json`'s peak memory. Valid while the capture's kernels are neither added nor removed.
class kernels_by_time {
public:
  explicit kernels_by_time(const capture& source);

  [[nodiscard]] std::size_t size() const noexcept { return m_kernels.size(); }
  [[nodiscard]] const kernel_stat& operator[](std::size_t i) const {
    return m_sorted.empty() ? m_kernels[i] : *m_sorted[i];
  }

private:
  const std::vector<kernel_stat>& m_kernels;
  std::vector<const kernel_stat*> m_sorted;  // empty when m_kernels is in the order
};

}  // namespace aorta::detail
