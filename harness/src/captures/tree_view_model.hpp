// What `aorta view` prints, before it is printed: one node per tree node, with its own values.
// Built from a hatchet document as it streams (tree_view_builder, a hatchet_sax sink) or from a
// capture's frames and placements (tree_view_from_capture: chrome traces, whose events carry the
// call path instead of a tree).
#pragma once

#include "aorta/capture.hpp"
#include "captures/hatchet_reader_sax.hpp"

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace aorta::detail {

enum class view_metric : std::uint8_t {
  time,
  count,
  cycles,
  normalized_cycles,
  samples,
  stalled_samples
};
inline constexpr std::size_t view_metric_count = 6;

struct view_node {
  std::string name;
  std::array<double, view_metric_count> own{};  // indexed by view_metric
  std::uint32_t parent = 0;
  std::vector<std::uint32_t> children;
  std::vector<std::pair<std::string, std::string>> texts;  // user metrics kept as text
  // PC samples stalled per reason (an index into view_tree::stall_reasons), this node's own.
  std::vector<std::pair<std::uint32_t, std::uint64_t>> stalls;
};

struct view_tree {
  std::vector<view_node> nodes;  // [0] is ROOT; a child comes after its parent
  std::array<bool, view_metric_count> present{};
  // Every stall reason in the file once: a sampled line carries up to 20 of them, so a node keeps
  // indexes rather than 10^5 copies of the same names.
  std::vector<std::string> stall_reasons;

  [[nodiscard]] bool has(view_metric m) const { return present[static_cast<std::size_t>(m)]; }
};

// Holds the whole tree: the view is for humans, and its files are the ones humans read.
class tree_view_builder {
public:
  void node_begin(std::size_t depth);
  void node_end(const hatchet_node& node, std::size_t depth);
  void device_seen(std::string_view, std::string_view) {}
  void device_property(std::string_view, std::string_view, std::string_view, std::string_view) {}

  [[nodiscard]] view_tree take() { return std::move(m_tree); }

private:
  view_tree m_tree;
  std::vector<std::uint32_t> m_open;  // index of the open node at each depth
};

// ROOT, then the capture's frames, with its placed kernels as leaves (time and launch count).
[[nodiscard]] view_tree tree_view_from_capture(const capture& source);

// The frame names from below ROOT down to the node that owns node `index`'s text metrics (its
// parent for a <metric> helper), as the hatchet reader records them in capture::text_metrics.
[[nodiscard]] std::vector<std::string> text_owner_path(const view_tree& tree, std::uint32_t index);

}  // namespace aorta::detail
