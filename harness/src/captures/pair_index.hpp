// A map from a pair of 32-bit ids to a 32-bit index, in one flat array: the frame tree asks it
// "which frame is name N under parent P" once per frame of every call path it reads.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace aorta::detail {

class pair_index {
public:
  // The index stored for (high, low), or `fresh` after storing it when the pair is new; `added`
  // says which.
  std::uint32_t find_or_add(std::uint32_t high, std::uint32_t low, std::uint32_t fresh,
                            bool& added);

  // The most slots one lookup has visited: stays small (tens) whatever the pairs, or every
  // lookup walks a cluster and the reader turns quadratic.
  [[nodiscard]] std::size_t longest_probe() const noexcept { return m_longest_probe; }

private:
  struct slot {
    std::uint64_t key = empty;
    std::uint32_t value = 0;
  };
  // No pair is (UINT32_MAX, UINT32_MAX): ids stay below the tree's bound.
  static constexpr std::uint64_t empty = UINT64_MAX;
  void grow();

  std::vector<slot> m_slots;
  std::size_t m_size = 0;
  std::size_t m_longest_probe = 0;
};

}  // namespace aorta::detail
