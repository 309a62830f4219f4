// Per-launch times of one process's trace (Proton's chrome trace: one event a launch), held until
// the file ends so that the warm-up rule (warmup_launches.hpp) can see each kernel's whole series
// in launch order. A kernel's first launches in a process are slow (a 2048 x 2048 x 2240 bf16
// GEMM's first on an H100: 7-13x its steady time); summed into the kernel's time they add a
// per-process cost that hides the process's own speed, which mode detection needs
// (baseline/process_modes.hpp). So each warm-up launch counts at the kernel's steady median: the
// time stays that of every launch, the count is unchanged.
#pragma once

#include "captures/frame_tree.hpp"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace aorta::detail {

// Launches one file may hold back (32 bytes each: 8 MiB). Past it the buffered launches are
// summed as measured and the rest go straight to the sums, with a note: reading stays bounded.
inline constexpr std::size_t launch_series_max_launches = 262'144;

class launch_series {
public:
  launch_series() = default;
  explicit launch_series(std::size_t max_launches) : m_max(max_launches) {}

  // One launch of `kernel` placed at `frame`, starting at `start_us` (NaN when the event has no
  // usable "ts": launch order is then file order) and lasting `ns`.
  void add(frame_tree_builder& tree, std::size_t frame, std::string_view kernel, double start_us,
           double ns);

  // The file ended: applies the warm-up rule to each kernel of 8 launches or more and sums every
  // launch into `tree`; a note per kernel with warm-up launches. `source` names the file.
  void flush(frame_tree_builder& tree, std::vector<std::string>& notes, std::string_view source);

private:
  struct launch {
    double start_us;
    double ns;
    std::size_t frame;
    std::uint32_t kernel;
  };
  void spill(frame_tree_builder& tree);

  std::size_t m_max = launch_series_max_launches;
  bool m_spilled = false;  // this file passed m_max: launches go straight to the tree
  std::size_t m_name_bytes = 0;
  std::vector<launch> m_launches;
  std::vector<std::string> m_names;
  std::unordered_map<std::string, std::uint32_t> m_ids;
};

}  // namespace aorta::detail
