#include "captures/frame_tree.hpp"

#include "aorta/error.hpp"
#include "checked_sum.hpp"
#include "free_storage.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

namespace aorta::detail {

namespace {

// The checked sums of checked_sum.hpp, with the field named only when a value is refused.
double add_time(double total, double more, std::string_view where, std::string_view kernel) {
  const double sum = total + more;
  if (std::isfinite(more) && more >= 0.0 && std::isfinite(sum)) return sum;
  return add_duration(total, more, where, fmt::format("kernel '{}' time (ns)", kernel));
}

std::uint64_t add_launches(std::uint64_t total, std::uint64_t more, std::string_view where,
                           std::string_view kernel) {
  if (more <= max_count && total <= max_count - more) return total + more;
  return add_count(total, more, where, fmt::format("kernel '{}' launch count", kernel));
}

}  // namespace

void add_to_kernel(std::optional<std::uint64_t>& total_launches, double& total_ns,
                   std::optional<std::uint64_t> launches, double more_ns, std::string_view where,
                   std::string_view kernel) {
  total_ns = add_time(total_ns, more_ns, where, kernel);
  if (!launches || !total_launches)
    total_launches.reset();
  else
    total_launches = add_launches(*total_launches, *launches, where, kernel);
}

void add_to_kernel(kernel_stat& stat, std::optional<std::uint64_t> launches, double total_ns,
                   std::string_view where) {
  add_to_kernel(stat.launches, stat.total_ns, launches, total_ns, where, stat.name);
}

void frame_tree_builder::drop_if_full() {
  if (m_frames.size() + m_placements.size() >= frame_tree_max_entries) drop();
}

void frame_tree_builder::drop() {
  m_dropped = true;
  free_storage(m_names);
  m_frames = std::vector<frame_entry>();
  free_storage(m_children);
  m_placements = std::vector<placement_entry>();
  free_storage(m_placement_index);
}

std::uint32_t frame_tree_builder::pair_hash(std::uint32_t high, std::uint32_t low) noexcept {
  // MurmurHash3's 64-bit finalizer.
  std::uint64_t key = (static_cast<std::uint64_t>(high) << 32U) | low;
  key ^= key >> 33U;
  key *= 0xFF51AFD7ED558CCDULL;
  key ^= key >> 33U;
  key *= 0xC4CEB9FE1A85EC53ULL;
  key ^= key >> 33U;
  return static_cast<std::uint32_t>(key);
}

std::size_t frame_tree_builder::child(std::size_t parent, std::string_view name) {
  if (m_mode == frame_tree_mode::totals_only || m_dropped) return context_frame::no_parent;
  drop_if_full();
  if (m_dropped) return context_frame::no_parent;
  const std::uint32_t parent_id =
      parent == context_frame::no_parent ? none : static_cast<std::uint32_t>(parent);
  const std::uint32_t name_hash = name_table::hash_of(name);
  const std::uint32_t hash = pair_hash(parent_id, name_hash);
  m_children.make_room(m_frames.size());
  const compact_index::probe found = m_children.find(hash, [&](std::uint32_t id) {
    return m_frames[id].parent == parent_id && m_names.equals(m_frames[id].name, name);
  });
  if (found.found) return found.id;
  const std::uint32_t name_id = m_names.intern(name, name_hash);
  if (name_id == name_table::full) {
    drop();
    return context_frame::no_parent;
  }
  const auto id = static_cast<std::uint32_t>(m_frames.size());
  m_frames.push_back({name_id, parent_id});
  m_children.insert(found, hash, id);
  return id;
}

std::size_t frame_tree_builder::path(const std::vector<std::string_view>& names) {
  std::size_t frame = context_frame::no_parent;
  for (const std::string_view name : names) frame = child(frame, name);
  return frame;
}

std::uint32_t frame_tree_builder::kernel_id(std::string_view name) {
  const std::uint32_t id = intern_kernel(name);
  // Past the end also when names were interned with no totals yet (intern_kernel).
  // Checked here, not in grow_to: a trace asks once per event, and a new kernel is rare.
  if (id >= m_kernel_totals.size()) m_kernel_totals.grow_to(std::size_t{id} + 1);
  return id;
}

void frame_tree_builder::end_naming() {
  m_kernel_names.release_index();
  m_kernel_totals.grow_to(m_kernel_names.size());
}

std::uint32_t frame_tree_builder::intern_kernel(std::string_view name) {
  if (m_kernel_names.size() < max_distinct_kernels) {
    const std::uint32_t id = m_kernel_names.intern(name);
    if (id != name_table::full) return id;
    throw capture_error(fmt::format(
        "{}: the distinct kernel names total more than {} bytes, aorta's limit on one capture's "
        "names; aorta does not sum part of a capture. Fix: profile fewer distinct kernels per run",
        m_source.empty() ? std::string("capture") : m_source, m_name_bytes));
  }
  // At the bound only a known name is summed; a new one is refused before it is stored.
  if (const std::optional<std::uint32_t> known = m_kernel_names.find(name)) return *known;
  throw capture_error(fmt::format(
      "{}: more than {} distinct kernel names (max_distinct_kernels); aorta does not sum "
      "part of a capture, since checks on the kernels left out would pass unseen. Fix: "
      "profile fewer distinct kernels per run",
      m_source.empty() ? std::string("capture") : m_source, max_distinct_kernels));
}

void frame_tree_builder::reserve_kernels(std::size_t names, std::size_t bytes) {
  const std::size_t known = std::min(max_distinct_kernels, m_kernel_names.size());
  names = std::min(names, max_distinct_kernels - known);
  m_kernel_names.reserve(names, bytes);
}

void frame_tree_builder::add_kernel(std::size_t frame, std::string_view name,
                                    std::optional<std::uint64_t> launches, double total_ns) {
  add_kernel(frame, kernel_id(name), launches, total_ns);
}

void frame_tree_builder::add_kernel(std::size_t frame, std::uint32_t kernel,
                                    std::optional<std::uint64_t> launches, double total_ns) {
  const std::string_view name = m_kernel_names.name(kernel);
  kernel_total& sum = m_kernel_totals[kernel];
  std::optional<std::uint64_t> summed = sum.known_launches();
  add_to_kernel(summed, sum.total_ns, launches, total_ns, m_source, name);
  sum.launches = summed.value_or(kernel_total::unknown);
  if (m_mode == frame_tree_mode::totals_only || m_dropped) return;
  drop_if_full();
  if (m_dropped) return;
  const std::uint32_t frame_id =
      frame == context_frame::no_parent ? none : static_cast<std::uint32_t>(frame);
  const std::uint32_t hash = pair_hash(frame_id, kernel);
  m_placement_index.make_room(m_placements.size());
  const compact_index::probe found = m_placement_index.find(hash, [&](std::uint32_t id) {
    return m_placements[id].frame == frame_id && m_placements[id].kernel == kernel;
  });
  std::uint32_t at = found.id;
  if (!found.found) {
    at = static_cast<std::uint32_t>(m_placements.size());
    m_placements.push_back({frame_id, kernel});
    m_placement_index.insert(found, hash, at);
  }
  placement_entry& placed = m_placements[at];
  // Part of the kernel's time, which was just summed checked, so this sum cannot overflow; the
  // kernel's launch count may be unknown already, so this one is checked.
  placed.total_ns += total_ns;
  if (!launches)
    placed.launches_known = false;
  else if (placed.launches_known)
    placed.launches = add_launches(placed.launches, *launches, m_source, name);
}

std::vector<placed_kernel> frame_tree_builder::placed_kernels(
    const std::vector<kernel_stat>& kernels_by_id) const {
  std::vector<placed_kernel> out;
  out.reserve(m_placements.size());
  for (const placement_entry& entry : m_placements) {
    placed_kernel placed;
    placed.frame = entry.frame == none ? context_frame::no_parent : entry.frame;
    placed.kernel.name = kernels_by_id[entry.kernel].name;
    placed.kernel.total_ns = entry.total_ns;
    if (entry.launches_known) placed.kernel.launches = entry.launches;
    out.push_back(std::move(placed));
  }
  return out;
}

void frame_tree_builder::finish(capture& out) {
  if (m_dropped)
    out.notes.push_back(fmt::format(
        "the call tree above the kernels has more than {} distinct frame paths and kernel "
        "placements, or its frame names more than {} bytes; it was not kept (kernel totals are "
        "complete), so under(...) checks cannot be evaluated on this capture",
        frame_tree_max_entries, m_name_bytes));
  out.frames.clear();
  out.frames.reserve(m_frames.size());
  for (const frame_entry& entry : m_frames)
    out.frames.push_back({std::string(m_names.name(entry.name)),
                          entry.parent == none ? context_frame::no_parent : entry.parent});
  out.placements.clear();
  if (m_placed_taken) {
    out.placements = std::move(m_placed);
  } else if (!m_placements.empty()) {
    std::vector<kernel_stat> named;
    share_kernel_names(named);
    out.placements = placed_kernels(named);
  }
  *this = frame_tree_builder{m_mode, m_name_bytes};
}

void frame_tree_builder::share_kernel_names(std::vector<kernel_stat>& kernels_by_id) {
  kernels_by_id.resize(std::max(kernels_by_id.size(), m_kernel_names.size()));
  // Shared, not copied: every kernel's name is a view of the table's one block of names.
  m_kernel_names.share([&kernels_by_id](std::uint32_t id, shared_name name) {
    kernels_by_id[id].name = std::move(name);
  });
}

void frame_tree_builder::take_kernels(capture& out) {
  // Names interned without end_naming have their (empty) totals, as add_kernel would have made.
  m_kernel_totals.grow_to(m_kernel_names.size());
  out.kernels.clear();
  out.kernels.reserve(m_kernel_totals.size());
  // Each block of sums is freed once made into kernels: the sums of 80,000 kernels were 1.3 MB
  // of a rocpd read's peak beside the kernels.
  m_kernel_totals.take_each([&out](const kernel_total& sum) {
    out.kernels.push_back({{}, sum.known_launches(), sum.total_ns});
  });
  share_kernel_names(out.kernels);
  // The placements find their kernels' names by id, so they are made before the sort.
  m_placed = placed_kernels(out.kernels);
  m_placed_taken = true;
  std::sort(out.kernels.begin(), out.kernels.end(), [](const kernel_stat& a, const kernel_stat& b) {
    if (a.total_ns != b.total_ns) return a.total_ns > b.total_ns;
    return a.name < b.name;
  });
}

}  // namespace aorta::detail
