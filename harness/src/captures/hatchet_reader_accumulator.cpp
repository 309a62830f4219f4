#include "captures/hatchet_reader_accumulator.hpp"

#include "aorta/error.hpp"
#include "checked_sum.hpp"

#include "captures/hatchet_reader_detail.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include <fmt/format.h>

namespace aorta::detail {

namespace {

constexpr std::size_t max_notes = 50;
// GraphState::metricTag in Triton's proton/csrc (Profiler/Graph.h).
constexpr std::string_view metric_helper_name = "<metric>";

}  // namespace

void hatchet_accumulator::note(std::string text) {
  if (m_notes.size() < max_notes)
    m_notes.push_back(std::move(text));
  else
    ++m_notes_dropped;
}

std::size_t hatchet_accumulator::open_frame(std::size_t depth) {
  if (depth == 0) return context_frame::no_parent;  // ROOT is not a frame
  if (m_open_frames[depth] == context_frame::no_parent) {
    const std::size_t parent = open_frame(depth - 1);
    m_open_frames[depth] = m_provisional_frames.size();
    m_provisional_frames.push_back({0, 0, parent});
  }
  return m_open_frames[depth];
}

void hatchet_accumulator::name_provisional(provisional_frame& frame, std::string_view name) {
  frame.name_start = m_provisional_names.size();
  frame.name_size = name.size();
  m_provisional_names += name;
}

void hatchet_accumulator::flush_provisional() {
  if (m_provisional_frames.empty() && m_provisional_kernels.empty() && m_provisional_texts.empty())
    return;
  // Only frames above a kernel become capture frames; a frame that only carries text metrics
  // stays out of the tree that under(...) selects from.
  std::vector<bool>& needed = m_flush_needed;
  needed.assign(m_provisional_frames.size(), false);
  for (const provisional_kernel& k : m_provisional_kernels)
    for (std::size_t f = k.frame; f != context_frame::no_parent && !needed[f];
         f = m_provisional_frames[f].parent)
      needed[f] = true;
  std::vector<std::size_t>& real = m_flush_real;
  real.assign(m_provisional_frames.size(), context_frame::no_parent);
  for (std::size_t i = 0; i < m_provisional_frames.size(); ++i) {
    if (!needed[i]) continue;
    const provisional_frame& f = m_provisional_frames[i];
    // Parents come first: a provisional frame is created after its parent.
    const std::size_t parent = f.parent == context_frame::no_parent ? f.parent : real[f.parent];
    // A <metric> helper is no scope of the user's: its kernels belong to its parent.
    const std::string_view name = provisional_name(f);
    real[i] = name == metric_helper_name ? parent : m_tree.child(parent, name);
  }
  for (const provisional_kernel& k : m_provisional_kernels)
    m_tree.add_kernel(k.frame == context_frame::no_parent ? k.frame : real[k.frame], *k.name,
                      k.launches, k.total_ns);
  for (provisional_text& t : m_provisional_texts) {
    std::vector<std::string> path;
    for (std::size_t f = t.frame; f != context_frame::no_parent; f = m_provisional_frames[f].parent)
      if (const std::string_view name = provisional_name(m_provisional_frames[f]);
          name != metric_helper_name)
        path.emplace_back(name);
    std::reverse(path.begin(), path.end());
    if (!t.own.empty()) path.push_back(std::move(t.own));
    keep_text(std::move(path), std::move(t.value));
  }
  m_provisional_frames.clear();
  m_provisional_names.clear();
  m_provisional_kernels.clear();
  m_provisional_texts.clear();
}

void hatchet_accumulator::add_texts(const hatchet_node& node, std::size_t depth) {
  m_texts_dropped += node.texts_dropped;
  if (node.texts.empty()) return;
  // Proton writes a <metric> helper's user metrics for the helper's parent (TreeData.cpp).
  const bool helper = depth != 0 && node.name == metric_helper_name;
  const std::size_t frame = depth == 0 ? context_frame::no_parent : open_frame(depth - 1);
  for (const hatchet_text_value& value : node.texts) {
    // Waiting texts are bounded too: one top-level subtree may hold any number of nodes.
    if (m_provisional_texts.size() >= text_metric_max_count) {
      ++m_texts_dropped;
      continue;
    }
    m_provisional_texts.push_back({frame, depth == 0 || helper ? std::string() : node.name, value});
  }
}

void hatchet_accumulator::keep_text(std::vector<std::string> path, hatchet_text_value value) {
  m_key.clear();
  for (const std::string& name : path) {
    m_key += name;
    m_key.push_back('\0');
  }
  m_key.push_back('\0');
  m_key += value.key;
  const auto found = m_text_index.find(std::string_view(m_key));
  if (found == m_text_index.end() && m_texts.size() >= text_metric_max_count) {
    ++m_texts_dropped;
    return;
  }
  if (value.full_bytes > text_metric_max_bytes) {
    std::string where;
    for (const std::string& name : path) where += (where.empty() ? "" : "/") + name;
    note(fmt::format("text metric '{}' of '{}': {} bytes, kept the first {} (ending in \"...\")",
                     value.key, where.empty() ? "ROOT" : where, value.full_bytes,
                     text_metric_max_bytes));
  }
  if (found != m_text_index.end()) {
    // A later flush or part file replaces a string metric, as Proton's own update does.
    m_texts[found->second].text = std::move(value.text);
    return;
  }
  m_text_index.emplace(m_key, m_texts.size());
  m_texts.push_back({std::move(path), std::move(value.key), std::move(value.text)});
}

void hatchet_accumulator::node_end(const hatchet_node& node, std::size_t depth) {
  // ROOT only carries zero-valued hints, even when it has no children.
  if (depth != 0 && !node.has_children) {
    if (node.name == metric_helper_name) {
      // Proton's helper that carries a CUDA graph's user metrics for its parent: not a kernel.
    } else if (node.time_ns) {
      m_depth_of_leaf = depth - 1;
      add_kernel(node);
      if (!node.rejected_time.empty())
        note(fmt::format("kernel '{}': skipped unusable time value {}; used the next time key",
                         node.name, node.rejected_time));
    } else if (node.samples || node.stalled_samples || !node.stalls.empty() ||
               !node.rejected_samples.empty()) {
      pend_sample_line(node, depth);
    } else if (node.cycles || node.normalized_cycles) {
      m_pending[depth - 1].push_back(
          {node.name, node.cycles.value_or(0.0), node.normalized_cycles.value_or(0.0)});
      m_saw_scopes = true;
    } else if (!node.rejected_time.empty()) {
      note(fmt::format("leaf '{}' dropped: {} is not a finite non-negative time", node.name,
                       node.rejected_time));
    }
    if (!node.rejected_cycles.empty())
      note(fmt::format("scope '{}': skipped {} (not a finite non-negative number)", node.name,
                       node.rejected_cycles));
  }
  // Most nodes carry no text metric: no call for them.
  if (!node.texts.empty() || node.texts_dropped != 0) add_texts(node, depth);
  if (node.has_children && !m_pending_lines[depth].empty()) add_sample_lines(node, depth);
  if (depth != 0 && node.has_children && m_open_frames[depth] != context_frame::no_parent)
    name_provisional(m_provisional_frames[m_open_frames[depth]], node.name);
  if (depth == 1) flush_provisional();
  const std::string_view kernel = depth == 0 ? std::string_view() : node.name;
  for (const pending_scope& scope : m_pending[depth]) add_scope(kernel, scope);
  m_pending[depth].clear();
}

void hatchet_accumulator::add_kernel(const hatchet_node& leaf) {
  auto it = m_kernels.find(std::string_view(leaf.name));
  if (it == m_kernels.end()) {
    if (m_kernels.size() >= max_distinct_kernels)
      throw json_shape_error(fmt::format(
          "more than {} distinct kernel names (max_distinct_kernels); aorta does not sum part of "
          "a capture, since checks on the kernels left out would pass unseen. Fix: profile "
          "fewer distinct kernels per run",
          max_distinct_kernels));
    it = m_kernels.emplace(leaf.name, kernel_total{}).first;
  }
  // Each node of one document is a distinct path, so the waiting frames and kernels count
  // against the tree's bound as they come: one top-level frame above every kernel (a Python
  // call path under <module>) must not hold the whole file until it ends.
  if (m_tree.keeps_tree() && !m_tree.dropped() &&
      m_provisional_frames.size() + m_provisional_kernels.size() >= frame_tree_max_entries)
    m_tree.drop();
  if (m_tree.keeps_tree() && !m_tree.dropped())
    m_provisional_kernels.push_back({open_frame(m_depth_of_leaf), &it->first,
                                     leaf.count == hatchet_node::count_state::valid
                                         ? std::optional<std::uint64_t>(leaf.launches)
                                         : std::nullopt,
                                     *leaf.time_ns});
  kernel_total& total = it->second;
  const double sum = total.total_ns + *leaf.time_ns;
  if (!std::isfinite(sum) || *leaf.time_ns < 0.0) {
    try {
      static_cast<void>(add_duration(total.total_ns, *leaf.time_ns, "the summed times",
                                     fmt::format("kernel '{}' time (ns)", leaf.name)));
    } catch (const capture_error& e) {
      throw json_shape_error(e.what());  // the scanner adds the byte, the reader the file
    }
  }
  total.total_ns = sum;  // the sax layer passes finite, non-negative times only
  switch (leaf.count) {
  case hatchet_node::count_state::valid:
    if (total.launches > max_count - leaf.launches) {
      if (total.launches_known)
        note(fmt::format("kernel '{}': launch counts sum past {} (max_count); count unknown",
                         leaf.name, max_count));
      total.launches_known = false;
    }
    total.launches += leaf.launches;
    break;
  case hatchet_node::count_state::invalid:
    note(fmt::format("kernel '{}': {} is not a launch count (an integer from 0 to {}); launch "
                     "count unknown",
                     leaf.name, leaf.rejected_count, max_count));
    total.launches_known = false;
    break;
  case hatchet_node::count_state::missing:
    note(fmt::format("kernel '{}': no \"count\" metric; launch count unknown", leaf.name));
    total.launches_known = false;
    break;
  }
  if (leaf.device_type == "CUDA")
    m_saw_cuda = true;
  else if (leaf.device_type == "HIP")
    m_saw_hip = true;
  else
    m_saw_untyped_kernel = true;
}

void hatchet_accumulator::add_scope(std::string_view kernel, const pending_scope& scope) {
  const std::uint32_t at = m_scope_index.find_or_insert(
      compact_hash(kernel, scope.scope), m_scopes.size(), [&](std::uint32_t i) {
        return m_scopes[i].scope == scope.scope && m_scopes[i].kernel == kernel;
      });
  if (at == m_scopes.size()) m_scopes.push_back({std::string(kernel), scope.scope, 0.0, 0.0});
  m_scopes[at].cycles += scope.cycles;
  m_scopes[at].normalized_cycles += scope.normalized_cycles;
}

device_info& hatchet_accumulator::device(std::string_view type, std::string_view id) {
  // Each property of a device names it again: the device just used is the likely one.
  if (m_last_device < m_devices.size()) {
    const device_info& last = m_devices[m_last_device];
    if (last.id == id && last.type == type) return m_devices[m_last_device];
  }
  // Indexed: a walk over the devices seen before made a 200,000-GPU table quadratic.
  m_last_device = m_device_index.find_or_insert(
      compact_hash(type, id), m_devices.size(), [&](std::uint32_t at) {
        return m_devices[at].id == id && m_devices[at].type == type;
      });
  if (m_last_device == m_devices.size())
    m_devices.push_back({std::string(type), std::string(id), {}});
  return m_devices[m_last_device];
}

void hatchet_accumulator::device_seen(std::string_view type, std::string_view id) {
  static_cast<void>(device(type, id));
}

void hatchet_accumulator::device_property(std::string_view type, std::string_view id,
                                          std::string_view key, std::string_view value) {
  // First file wins: the same GPU described twice (per-part files) must not flip its values.
  device(type, id).properties.try_emplace(std::string(key), value);
}

void hatchet_accumulator::finish(const hatchet_read_options& options, capture& out) {
  out.kernels.clear();
  out.kernels.reserve(m_kernels.size());
  for (auto& [name, total] : m_kernels) {
    kernel_stat k;
    k.name = name;
    k.total_ns = total.total_ns;
    if (total.launches_known) k.launches = total.launches;
    out.kernels.push_back(std::move(k));
  }
  std::sort(out.kernels.begin(), out.kernels.end(), [](const kernel_stat& a, const kernel_stat& b) {
    if (a.total_ns != b.total_ns) return a.total_ns > b.total_ns;
    return a.name < b.name;
  });
  flush_provisional();
  m_tree.finish(out);
  out.scopes = std::move(m_scopes);
  out.text_metrics = std::move(m_texts);
  if (m_texts_dropped != 0)
    note(fmt::format("{} text metric(s) beyond the first {} were not kept", m_texts_dropped,
                     text_metric_max_count));
  out.devices = std::move(m_devices);
  finish_samples(out);

  bool cuda = m_saw_cuda;
  bool hip = m_saw_hip;
  if (m_saw_untyped_kernel && !cuda && !hip) {
    // Kernels without a device_type: the device table is the next best witness.
    for (const device_info& d : out.devices) {
      cuda = cuda || d.type == "CUDA";
      hip = hip || d.type == "HIP";
    }
  }
  out.backend = resolve_proton_backend(options, m_saw_scopes, cuda, hip);

  for (std::string& n : m_notes) out.notes.push_back(std::move(n));
  if (m_notes_dropped != 0)
    out.notes.push_back(fmt::format("... and {} more notes like these", m_notes_dropped));
  *this = hatchet_accumulator{m_frames_mode};
}

}  // namespace aorta::detail
