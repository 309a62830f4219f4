#include "captures/frame_tree.hpp"

#include "aorta/error.hpp"
#include "captures/checked_sum.hpp"

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

void add_to_kernel(kernel_stat& stat, std::optional<std::uint64_t> launches, double total_ns,
                   std::string_view where) {
  const std::string field = fmt::format("kernel '{}'", stat.name);
  stat.total_ns = add_duration(stat.total_ns, total_ns, where, field + " time (ns)");
  if (!launches || !stat.launches)
    stat.launches.reset();
  else
    stat.launches = add_count(*stat.launches, *launches, where, field + " launch count");
}

void frame_tree_builder::add_kernel(std::size_t frame, std::string_view name,
                                    std::optional<std::uint64_t> launches, double total_ns) {
  auto known = m_kernel_index.find(name);
  if (known == m_kernel_index.end()) {
    if (m_kernels.size() >= max_distinct_kernels)
      throw capture_error(fmt::format(
          "{}: more than {} distinct kernel names (max_distinct_kernels); aorta does not sum "
          "part of a capture, since checks on the kernels left out would pass unseen. Fix: "
          "profile fewer distinct kernels per run",
          m_source.empty() ? std::string("capture") : m_source, max_distinct_kernels));
    known = m_kernel_index.emplace(std::string(name), m_kernels.size()).first;
    kernel_stat fresh;
    fresh.name = std::string(name);
    fresh.launches = 0;
    m_kernels.push_back(std::move(fresh));
  }
  add_to_kernel(m_kernels[known->second], launches, total_ns, m_source);
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
  add_to_kernel(m_placements[found->second].kernel, launches, total_ns, m_source);
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

void frame_tree_builder::take_kernels(capture& out) {
  out.kernels = std::move(m_kernels);
  m_kernels.clear();
  m_kernel_index.clear();
  std::sort(out.kernels.begin(), out.kernels.end(), [](const kernel_stat& a, const kernel_stat& b) {
    if (a.total_ns != b.total_ns) return a.total_ns > b.total_ns;
    return a.name < b.name;
  });
}

}  // namespace aorta::detail
