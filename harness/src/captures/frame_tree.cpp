#include "captures/frame_tree.hpp"

#include <algorithm>

#include <fmt/format.h>
#include <limits>
#include <unordered_map>

namespace aorta::detail {

void frame_tree_builder::drop_if_full() {
  if (m_frames.size() + m_placements.size() < frame_tree_max_entries) return;
  m_dropped = true;
  m_frames = {};
  m_children = {};
  m_placements = {};
  m_placement_index = {};
}

std::size_t frame_tree_builder::child(std::size_t parent, std::string_view name) {
  if (m_dropped) return context_frame::no_parent;
  drop_if_full();
  if (m_dropped) return context_frame::no_parent;
  auto key = std::make_pair(parent, std::string(name));
  const auto found = m_children.find(key);
  if (found != m_children.end()) return found->second;
  const std::size_t id = m_frames.size();
  m_frames.push_back({key.second, parent});
  m_children.emplace(std::move(key), id);
  return id;
}

std::size_t frame_tree_builder::path(const std::vector<std::string_view>& names) {
  std::size_t frame = context_frame::no_parent;
  for (const std::string_view name : names) frame = child(frame, name);
  return frame;
}

void frame_tree_builder::add_kernel(std::size_t frame, std::string_view name,
                                    std::optional<std::uint64_t> launches, double total_ns) {
  if (m_dropped) return;
  drop_if_full();
  if (m_dropped) return;
  auto key = std::make_pair(frame, std::string(name));
  auto found = m_placement_index.find(key);
  if (found == m_placement_index.end()) {
    found = m_placement_index.emplace(std::move(key), m_placements.size()).first;
    placed_kernel fresh;
    fresh.frame = frame;
    fresh.kernel.name = std::string(name);
    fresh.kernel.launches = 0;
    m_placements.push_back(std::move(fresh));
  }
  kernel_stat& stat = m_placements[found->second].kernel;
  stat.total_ns += total_ns;
  if (!launches || !stat.launches ||
      *stat.launches > std::numeric_limits<std::uint64_t>::max() - *launches) {
    stat.launches.reset();
  } else {
    *stat.launches += *launches;
  }
}

void frame_tree_builder::finish(capture& out) {
  if (m_dropped)
    out.notes.push_back(fmt::format(
        "the call tree above the kernels has more than {} distinct frame paths and kernel "
        "placements; it was not kept (kernel totals are complete), so under(...) checks cannot "
        "be evaluated on this capture",
        frame_tree_max_entries));
  out.frames = std::move(m_frames);
  out.placements = std::move(m_placements);
  *this = frame_tree_builder{};
}

void kernels_from_placements(capture& out) {
  std::unordered_map<std::string_view, std::size_t> index;
  out.kernels.clear();
  for (const placed_kernel& placed : out.placements) {
    const auto [it, fresh] = index.emplace(placed.kernel.name, out.kernels.size());
    if (fresh) {
      out.kernels.push_back(placed.kernel);
      continue;
    }
    kernel_stat& total = out.kernels[it->second];
    total.total_ns += placed.kernel.total_ns;
    if (!placed.kernel.launches || !total.launches ||
        *total.launches > std::numeric_limits<std::uint64_t>::max() - *placed.kernel.launches)
      total.launches.reset();
    else
      *total.launches += *placed.kernel.launches;
  }
  std::sort(out.kernels.begin(), out.kernels.end(), [](const kernel_stat& a, const kernel_stat& b) {
    if (a.total_ns != b.total_ns) return a.total_ns > b.total_ns;
    return a.name < b.name;
  });
}

}  // namespace aorta::detail
