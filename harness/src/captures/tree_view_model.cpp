#include "captures/tree_view_model.hpp"

#include <algorithm>

namespace aorta::detail {

namespace {

// GraphState::metricTag in Triton's proton/csrc (Profiler/Graph.h), as the reader knows it.
constexpr std::string_view view_metric_helper_name = "<metric>";

void set_own(view_tree& tree, view_node& node, view_metric m, double value, bool counts) {
  node.own[static_cast<std::size_t>(m)] = value;
  tree.present[static_cast<std::size_t>(m)] |= counts;
}

}  // namespace

void tree_view_builder::node_begin(std::size_t depth) {
  const auto index = static_cast<std::uint32_t>(m_tree.nodes.size());
  m_tree.nodes.emplace_back();
  if (depth != 0) {
    m_tree.nodes.back().parent = m_open[depth - 1];
    m_tree.nodes[m_open[depth - 1]].children.push_back(index);
  }
  if (m_open.size() <= depth) m_open.resize(depth + 1);
  m_open[depth] = index;
}

void tree_view_builder::node_end(const hatchet_node& node, std::size_t depth) {
  view_node& v = m_tree.nodes[m_open[depth]];
  v.name = node.name;
  const bool counts = depth != 0;  // ROOT's zero-valued hints say nothing about the data
  if (node.time_ns) set_own(m_tree, v, view_metric::time, *node.time_ns, counts);
  if (node.count == hatchet_node::count_state::valid)
    set_own(m_tree, v, view_metric::count, static_cast<double>(node.launches), counts);
  if (node.cycles) set_own(m_tree, v, view_metric::cycles, *node.cycles, counts);
  if (node.normalized_cycles)
    set_own(m_tree, v, view_metric::normalized_cycles, *node.normalized_cycles, counts);
  if (node.samples)
    set_own(m_tree, v, view_metric::samples, static_cast<double>(*node.samples), counts);
  if (node.stalled_samples)
    set_own(m_tree, v, view_metric::stalled_samples, static_cast<double>(*node.stalled_samples),
            counts);
  for (const hatchet_text_value& text : node.texts) v.texts.emplace_back(text.key, text.text);
  for (const pc_stall& stall : node.stalls) {
    std::vector<std::string>& reasons = m_tree.stall_reasons;
    const auto index = static_cast<std::uint32_t>(
        std::find(reasons.begin(), reasons.end(), stall.reason) - reasons.begin());
    if (index == reasons.size()) reasons.push_back(stall.reason);
    v.stalls.emplace_back(index, stall.samples);
  }
}

view_tree tree_view_from_capture(const capture& source) {
  view_tree tree;
  tree.nodes.emplace_back();
  tree.nodes.front().name = "ROOT";
  // Frames come parents first (frame_tree_builder), so a frame's parent node already exists.
  std::vector<std::uint32_t> node_of(source.frames.size());
  const auto attach = [&](std::size_t frame) {
    const auto index = static_cast<std::uint32_t>(tree.nodes.size());
    tree.nodes.emplace_back();
    const std::uint32_t parent = frame == context_frame::no_parent ? 0 : node_of[frame];
    tree.nodes.back().parent = parent;
    tree.nodes[parent].children.push_back(index);
    return index;
  };
  for (std::size_t f = 0; f < source.frames.size(); ++f) {
    node_of[f] = attach(source.frames[f].parent);
    tree.nodes[node_of[f]].name = source.frames[f].name;
  }
  for (const placed_kernel& placed : source.placements) {
    const std::uint32_t index = attach(placed.frame);
    view_node& leaf = tree.nodes[index];
    leaf.name = placed.kernel.name;
    set_own(tree, leaf, view_metric::time, placed.kernel.total_ns, true);
    if (placed.kernel.launches)
      set_own(tree, leaf, view_metric::count, static_cast<double>(*placed.kernel.launches), true);
  }
  return tree;
}

std::vector<std::string> text_owner_path(const view_tree& tree, std::uint32_t index) {
  std::vector<std::string> path;
  for (std::uint32_t i = index; i != 0; i = tree.nodes[i].parent)
    if (tree.nodes[i].name != view_metric_helper_name) path.push_back(tree.nodes[i].name);
  std::reverse(path.begin(), path.end());
  return path;
}

}  // namespace aorta::detail
