#include "captures/launch_series.hpp"

#include "captures/warmup_launches.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <numeric>

namespace aorta::detail {
namespace {

double steady_median_of(std::vector<double> values) {
  const auto middle = values.begin() + static_cast<std::ptrdiff_t>(values.size() / 2);
  std::nth_element(values.begin(), middle, values.end());
  if (values.size() % 2 == 1) return *middle;
  return (*middle + *std::max_element(values.begin(), middle)) / 2.0;
}

}  // namespace

void launch_series::add(frame_tree_builder& tree, std::size_t frame, std::string_view kernel,
                        double start_us, double ns) {
  if (m_spilled) {
    tree.add_kernel(frame, kernel, 1, ns);
    return;
  }
  if (m_launches.size() >= m_max) {
    spill(tree);
    tree.add_kernel(frame, kernel, 1, ns);
    return;
  }
  auto found = m_ids.find(std::string(kernel));
  if (found == m_ids.end() && m_name_bytes + kernel.size() > name_table::max_bytes) {
    // As many name bytes as the tree itself refuses: let it say so, naming the file.
    spill(tree);
    tree.add_kernel(frame, kernel, 1, ns);
    return;
  }
  if (found == m_ids.end()) {
    m_name_bytes += kernel.size();
    found = m_ids.emplace(std::string(kernel), static_cast<std::uint32_t>(m_names.size())).first;
    m_names.emplace_back(kernel);
  }
  m_launches.push_back({start_us, ns, frame, found->second});
}

void launch_series::spill(frame_tree_builder& tree) {
  for (const launch& l : m_launches) tree.add_kernel(l.frame, m_names[l.kernel], 1, l.ns);
  m_launches = std::vector<launch>();
  m_spilled = true;
}

void launch_series::flush(frame_tree_builder& tree, std::vector<std::string>& notes,
                          std::string_view source) {
  if (m_spilled) {
    notes.push_back(fmt::format(
        "{}: more than {} kernel launches: summed as measured, without the warm-up rule", source,
        m_max));
  }
  std::vector<std::vector<std::size_t>> by_kernel(m_names.size());
  for (std::size_t i = 0; i < m_launches.size(); ++i) by_kernel[m_launches[i].kernel].push_back(i);
  for (auto& order : by_kernel) {
    if (order.size() < warmup_min_launches) continue;
    const bool timed = std::all_of(order.begin(), order.end(),
                                   [&](std::size_t i) { return std::isfinite(m_launches[i].start_us); });
    if (timed) {
      std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        return m_launches[a].start_us < m_launches[b].start_us;
      });
    }
    std::vector<double> times;
    for (const std::size_t i : order) times.push_back(m_launches[i].ns);
    const std::size_t warmup = warmup_launches(times);
    if (warmup == 0) continue;
    const double steady =
        steady_median_of({times.begin() + static_cast<std::ptrdiff_t>(warmup), times.end()});
    for (std::size_t w = 0; w < warmup; ++w) m_launches[order[w]].ns = steady;
    notes.push_back(fmt::format(
        "{}: kernel '{}': the first {} of its {} launches are warm-up (slower than {}x the median "
        "of the second half) and count at the steady median, {:.4g} us",
        source, m_names[m_launches[order.front()].kernel], warmup, times.size(),
        warmup_steady_factor, steady / 1e3));
  }
  for (const launch& l : m_launches) tree.add_kernel(l.frame, m_names[l.kernel], 1, l.ns);
  *this = launch_series(m_max);
}

}  // namespace aorta::detail
