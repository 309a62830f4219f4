// The capture reader's sink for hatchet_sax: sums leaf kernels and intra-kernel scopes over one
// or more documents and turns them into a capture.
#pragma once

#include "aorta/capture.hpp"
#include "captures/frame_tree.hpp"
#include "captures/hatchet_reader.hpp"
#include "captures/hatchet_reader_sax.hpp"
#include "captures/compact_index.hpp"
#include "captures/string_keyed_map.hpp"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace aorta::detail {

class hatchet_accumulator {
public:
  explicit hatchet_accumulator(frame_tree_mode frames = frame_tree_mode::kept)
      : m_frames_mode(frames), m_tree(frames) {}

  // Inline, as the sax layer calls it once per node of the tree.
  void node_begin(std::size_t depth) {
    if (depth >= m_pending.size()) {
      m_pending.resize(depth + 1);
      m_pending_lines.resize(depth + 1);
    }
    m_pending[depth].clear();
    m_pending_lines[depth].clear();
    if (depth >= m_open_frames.size()) m_open_frames.resize(depth + 1);
    m_open_frames[depth] = context_frame::no_parent;
  }
  void node_end(const hatchet_node& node, std::size_t depth);
  void device_seen(std::string_view type, std::string_view id);
  void device_property(std::string_view type, std::string_view id, std::string_view key,
                       std::string_view value);

  // Moves everything summed so far into `out` (kernels sorted, backend resolved, notes).
  void finish(const hatchet_read_options& options, capture& out);

  // Notes beyond a cap are counted, not kept: a broken 200 MB file must not make a 200 MB report.
  void note(std::string text);

private:
  struct kernel_total {
    double total_ns = 0.0;
    std::uint64_t launches = 0;
    bool launches_known = true;
  };
  struct pending_scope {
    std::string scope;
    double cycles;
    double normalized_cycles;
  };

  // Frames are named only when their node ends (Proton writes "children" before "frame"), so a
  // kernel is first placed under provisional frames, which become real ones when the top-level
  // subtree holding them ends: memory holds one top-level subtree, not the file.
  struct provisional_frame {
    std::size_t name_start = 0;  // the name is m_provisional_names[name_start, +name_size)
    std::size_t name_size = 0;
    std::size_t parent;
  };
  struct provisional_kernel {
    std::size_t frame;
    const std::string* name;  // the key in m_kernels, whose nodes never move
    std::optional<std::uint64_t> launches;
    double total_ns;
  };
  // A text metric waits for its frame names like a kernel: `frame` is the provisional frame above
  // the node that carries it, `own` that node's name (empty for ROOT and <metric> helpers).
  struct provisional_text {
    std::size_t frame;
    std::string own;
    hatchet_text_value value;
  };
  std::size_t open_frame(std::size_t depth);
  [[nodiscard]] std::string_view provisional_name(const provisional_frame& frame) const noexcept {
    return std::string_view(m_provisional_names).substr(frame.name_start, frame.name_size);
  }
  void add_texts(const hatchet_node& node, std::size_t depth);
  void keep_text(std::vector<std::string> path, hatchet_text_value value);
  void name_provisional(provisional_frame& frame, std::string_view name);
  void flush_provisional();

  void add_kernel(const hatchet_node& leaf);
  void add_scope(std::string_view kernel, const pending_scope& scope);
  // PC sampling (hatchet_pc_samples.cpp): a line node waits for its kernel node to end.
  void pend_sample_line(const hatchet_node& line, std::size_t depth);
  void add_sample_lines(const hatchet_node& kernel, std::size_t depth);
  void finish_samples(capture& out);
  device_info& device(std::string_view type, std::string_view id);

  string_keyed_map<kernel_total> m_kernels;
  std::vector<scope_stat> m_scopes;
  compact_index m_scope_index;
  std::vector<std::vector<pending_scope>> m_pending;  // scope leaves waiting for their parent
  // PC-sample line leaves waiting for their kernel node, per depth of that node.
  std::vector<std::vector<pc_sample_line>> m_pending_lines;
  std::vector<pc_sample_line> m_lines;  // summed per (kernel, location)
  string_keyed_map<std::size_t> m_line_index;
  std::vector<device_info> m_devices;
  compact_index m_device_index;
  std::size_t m_last_device = static_cast<std::size_t>(-1);  // none yet
  std::vector<std::size_t> m_open_frames;  // per depth: provisional frame id, or no_parent
  std::vector<provisional_frame> m_provisional_frames;
  // Their names back to back, not a std::string each: one allocation and free per frame of a
  // Python call path was a third of reading the tree.
  std::string m_provisional_names;
  std::vector<bool> m_flush_needed;         // flush_provisional's scratch, kept between flushes
  std::vector<std::size_t> m_flush_real;
  std::vector<provisional_kernel> m_provisional_kernels;
  std::vector<provisional_text> m_provisional_texts;
  std::vector<text_metric> m_texts;
  string_keyed_map<std::size_t> m_text_index;
  std::size_t m_texts_dropped = 0;
  frame_tree_mode m_frames_mode;
  frame_tree_builder m_tree;
  std::string m_key;  // scratch for composite map keys
  std::vector<std::string> m_notes;
  std::size_t m_notes_dropped = 0;
  std::size_t m_depth_of_leaf = 0;  // the parent depth of the kernel leaf being added
  bool m_saw_scopes = false;
  bool m_saw_cuda = false;
  bool m_saw_hip = false;
  bool m_saw_untyped_kernel = false;
};

}  // namespace aorta::detail
