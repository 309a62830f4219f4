// Builds capture::frames and capture::placements: each frame path once, each kernel once per
// frame, however many files or flushes repeat them.
#pragma once

#include "aorta/capture.hpp"

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace aorta::detail {

// Frames and placements grow with the distinct call paths, not with the kernels: a Python call
// tree with unique paths per launch would make them grow with the file. Past this many entries
// the tree is dropped (with a note) so reading stays bounded; the kernel totals, kept apart from
// the tree, are unaffected.
inline constexpr std::size_t frame_tree_max_entries = 200'000;
// Distinct kernel names one capture may hold. Past it the capture is an error, not a truncation:
// a total over some kernels would make every check on the rest vacuous.
inline constexpr std::size_t max_distinct_kernels = 1'000'000;

class frame_tree_builder {
public:
  // The file now being read, for errors.
  void set_source(std::string source) { m_source = std::move(source); }
  // True once the tree went past frame_tree_max_entries and was dropped; later calls are no-ops.
  [[nodiscard]] bool dropped() const noexcept { return m_dropped; }
  // The id of the frame `name` under `parent` (context_frame::no_parent = a top-level frame).
  std::size_t child(std::size_t parent, std::string_view name);
  // Adds launches and time of kernel `name` at `frame`; an unknown launch count stays unknown.
  // Checked (captures/checked_sum.hpp): a count sum past max_count, a negative or non-finite
  // time, and more than max_distinct_kernels names are capture errors naming the source.
  void add_kernel(std::size_t frame, std::string_view name, std::optional<std::uint64_t> launches,
                  double total_ns);
  // Follows `path` from the root, creating frames as needed; returns the last frame's id.
  std::size_t path(const std::vector<std::string_view>& names);
  // Moves the kernel totals, hottest first, into out.kernels (before finish).
  void take_kernels(capture& out);
  // Moves the frames and placements into `out`, or notes why there are none; resets.
  void finish(capture& out);

private:
  std::vector<context_frame> m_frames;
  std::map<std::pair<std::size_t, std::string>, std::size_t, std::less<>> m_children;
  std::vector<placed_kernel> m_placements;
  std::map<std::pair<std::size_t, std::string>, std::size_t, std::less<>> m_placement_index;
  std::vector<kernel_stat> m_kernels;
  std::map<std::string, std::size_t, std::less<>> m_kernel_index;
  std::string m_source;
  bool m_dropped = false;

  void drop_if_full();
};

// Adds `launches` and `total_ns` into `stat`, checked; `where` names the source in errors.
void add_to_kernel(kernel_stat& stat, std::optional<std::uint64_t> launches, double total_ns,
                   std::string_view where);

}  // namespace aorta::detail
