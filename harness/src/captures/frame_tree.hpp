// Builds capture::frames and capture::placements: each frame path once, each kernel once per
// frame, however many files or flushes repeat them. While reading, a frame is two integers (its
// interned name and its parent) and a placement three, so the tree costs memory per distinct
// path, not per launch; the strings of capture::frames are made once, at finish().
#pragma once

#include "aorta/capture.hpp"
#include "captures/block_array.hpp"
#include "captures/compact_index.hpp"
#include "captures/name_table.hpp"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
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

// Whether a reader keeps the tree above the kernels: only under(...) checks and `aorta view` read
// it, and on a capture with a call path per launch it is most of the reader's time and memory.
enum class frame_tree_mode : std::uint8_t { kept, totals_only };

class frame_tree_builder {
public:
  frame_tree_builder() = default;
  // `name_bytes` below name_table::max_bytes is for tests of what happens past the names' limit.
  explicit frame_tree_builder(frame_tree_mode mode, std::size_t name_bytes = name_table::max_bytes)
      : m_mode(mode), m_name_bytes(name_bytes), m_names(name_bytes), m_kernel_names(name_bytes) {}

  // The file now being read, for errors.
  void set_source(std::string source) { m_source = std::move(source); }
  // True once the tree went past frame_tree_max_entries and was dropped; later calls are no-ops.
  [[nodiscard]] bool dropped() const noexcept { return m_dropped; }
  // Gives the tree up as if it had passed frame_tree_max_entries (a reader that holds entries
  // of its own before they reach the builder counts them against the same bound).
  void drop();
  // False when only kernel totals are summed (frame_tree_mode::totals_only).
  [[nodiscard]] bool keeps_tree() const noexcept { return m_mode == frame_tree_mode::kept; }
  // The id of the frame `name` under `parent` (context_frame::no_parent = a top-level frame);
  // no_parent when the tree is not kept or was dropped.
  std::size_t child(std::size_t parent, std::string_view name);
  // Adds launches and time of kernel `name` at `frame`; an unknown launch count stays unknown.
  // Checked (checked_sum.hpp): a count sum past max_count, a negative or non-finite
  // time, more than max_distinct_kernels names, and more than name_table::max_bytes of their
  // bytes are capture errors naming the source. Frame names past that many bytes drop the tree.
  void add_kernel(std::size_t frame, std::string_view name, std::optional<std::uint64_t> launches,
                  double total_ns);
  // The index of kernel `name`, adding the name when new; for a reader that names all its
  // kernels first and then sums by index (add_kernel below) once end_naming made their totals.
  // More than max_distinct_kernels names is the capture error of add_kernel.
  std::uint32_t intern_kernel(std::string_view name);
  // After intern_kernel: frees the names' index (the next name looked up rebuilds it) and makes
  // each interned kernel's totals, exactly sized. Index and totals are ~30 bytes a kernel, and
  // only one of them is held at once (80,000 kernels of a rocpd read: 1.3 MB off its peak).
  void end_naming();
  // add_kernel for the kernel of index `kernel` (intern_kernel).
  void add_kernel(std::size_t frame, std::uint32_t kernel, std::optional<std::uint64_t> launches,
                  double total_ns);
  // The name of the kernel of index `kernel`; valid until the next intern or take_kernels.
  [[nodiscard]] std::string_view kernel_name(std::uint32_t kernel) const noexcept {
    return m_kernel_names.name(kernel);
  }
  // Room for `names` more kernel names of `bytes` bytes in all (a reader that knows them up
  // front: no doubling copy at the read's peak); at most max_distinct_kernels names. Their
  // totals are made by end_naming.
  void reserve_kernels(std::size_t names, std::size_t bytes);
  // Follows `path` from the root, creating frames as needed; returns the last frame's id.
  std::size_t path(const std::vector<std::string_view>& names);
  // Moves the kernel totals, hottest first, into out.kernels (before finish).
  void take_kernels(capture& out);
  // Moves the frames and placements into `out`, or notes why there are none; resets (keeping
  // the mode).
  void finish(capture& out);

private:
  static constexpr std::uint32_t none = UINT32_MAX;
  struct frame_entry {
    std::uint32_t name;    // index into m_names
    std::uint32_t parent;  // `none` for a top-level frame
  };
  // A kernel's sums while reading; its name is m_kernel_names' entry of the same id, shared
  // into kernel_stat names at take_kernels (80,000 kernels as a string-keyed map and strings
  // were a quarter of a rocpd read's peak memory).
  // 16 bytes, not 24 with a std::optional: one per distinct kernel at the read's peak.
  struct kernel_total {
    // Past max_count, so never a checked sum: the count became unknown.
    static constexpr std::uint64_t unknown = UINT64_MAX;
    std::uint64_t launches = 0;
    double total_ns = 0.0;

    [[nodiscard]] std::optional<std::uint64_t> known_launches() const {
      return launches == unknown ? std::nullopt : std::optional<std::uint64_t>(launches);
    }
  };
  static_assert(sizeof(kernel_total) == 16);
  struct placement_entry {
    std::uint32_t frame;   // `none` for the root
    std::uint32_t kernel;  // index into m_kernel_totals
    bool launches_known = true;
    std::uint64_t launches = 0;
    double total_ns = 0.0;
  };

  // The hash of a (parent, name) or (frame, kernel) pair of ids: every bit of both reaches the
  // low bits a table masks, so one name under many parents does not cluster.
  [[nodiscard]] static std::uint32_t pair_hash(std::uint32_t high, std::uint32_t low) noexcept;

  std::uint32_t kernel_id(std::string_view name);
  void drop_if_full();
  // The placements, each kernel named as kernels_by_id[its id] (from share_kernel_names).
  [[nodiscard]] std::vector<placed_kernel> placed_kernels(
      const std::vector<kernel_stat>& kernels_by_id) const;
  // Moves the interned kernel names into kernels_by_id[id].name (grown to hold every id) and
  // empties the name table.
  void share_kernel_names(std::vector<kernel_stat>& kernels_by_id);

  frame_tree_mode m_mode = frame_tree_mode::kept;
  std::size_t m_name_bytes = name_table::max_bytes;
  name_table m_names;
  std::vector<frame_entry> m_frames;
  // (parent, name) -> frame in one probe, the name hashed once and confirmed in place: a name
  // table lookup and then a pair index lookup per frame were half the tree's cost.
  compact_index m_children;
  std::vector<placement_entry> m_placements;
  compact_index m_placement_index;  // (frame, kernel) -> placement
  name_table m_kernel_names;  // id = index into m_kernel_totals
  block_array<kernel_total> m_kernel_totals;
  std::vector<placed_kernel> m_placed;  // made by take_kernels, for finish
  bool m_placed_taken = false;
  std::string m_source;
  bool m_dropped = false;
};

// Adds `launches` and `total_ns` into `stat`, checked; `where` names the source in errors. The
// error text is only composed when a value is refused, so summing costs no formatting.
void add_to_kernel(kernel_stat& stat, std::optional<std::uint64_t> launches, double total_ns,
                   std::string_view where);
// The same sums, with the kernel's name given apart (for the messages).
void add_to_kernel(std::optional<std::uint64_t>& total_launches, double& total_ns,
                   std::optional<std::uint64_t> launches, double more_ns, std::string_view where,
                   std::string_view kernel);

}  // namespace aorta::detail
