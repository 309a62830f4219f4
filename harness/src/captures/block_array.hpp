// An array that grows by whole blocks of a fixed count: growing never copies (a doubling vector
// holds its old and new arrays at once) and an element stays where it is. take_each hands the
// elements out in order and frees each block once passed, so what they become and what they were
// are never all held at once. Readers hold one element per distinct kernel or group in these, at
// the read's peak.
#pragma once

#include <cstddef>
#include <memory>
#include <new>
#include <type_traits>
#include <utility>
#include <vector>

namespace aorta::detail {

// BlockBytes at or past malloc's mmap threshold (cli/main.cpp sets it to 128 KiB) makes each block
// its own mapping: a freed block leaves the process's memory at once, and its untouched tail never
// entered it.
template <class T, std::size_t BlockBytes = std::size_t{128} << 10>
class block_array {
public:
  static constexpr std::size_t per_block = BlockBytes / sizeof(T);
  static_assert(per_block > 0);
  // Blocks are raw storage, constructed as the array grows into them and never destroyed
  // element by element.
  static_assert(std::is_trivially_destructible_v<T>);
  static_assert(alignof(T) <= __STDCPP_DEFAULT_NEW_ALIGNMENT__);

  [[nodiscard]] std::size_t size() const noexcept { return m_size; }
  T& operator[](std::size_t index) noexcept {
    return m_blocks[index / per_block].get()[index % per_block];
  }
  const T& operator[](std::size_t index) const noexcept {
    return m_blocks[index / per_block].get()[index % per_block];
  }
  // Grows to `size` elements, the new ones value-initialised; never shrinks.
  void grow_to(std::size_t size) {
    while (m_blocks.size() * per_block < size) {
      // All BlockBytes, not per_block * sizeof(T): a request under the threshold would come
      // from the heap, where a freed block stays resident.
      block fresh(static_cast<T*>(::operator new(BlockBytes)));
      m_blocks.push_back(std::move(fresh));
    }
    for (; m_size < size; ++m_size) ::new (static_cast<void*>(&(*this)[m_size])) T();
  }
  // Calls take(element) for each element in order, freeing each block once its elements were
  // taken; the array is empty after.
  template <class Take>
  void take_each(const Take& take) {
    for (std::size_t at = 0; at < m_blocks.size(); ++at) {
      const std::size_t first = at * per_block;
      for (std::size_t i = first; i < m_size && i < first + per_block; ++i)
        take(m_blocks[at].get()[i - first]);
      m_blocks[at].reset();
    }
    m_blocks = std::vector<block>();
    m_size = 0;
  }

private:
  struct freer {
    void operator()(T* elements) const noexcept { ::operator delete(elements); }
  };
  using block = std::unique_ptr<T, freer>;

  std::vector<block> m_blocks;
  std::size_t m_size = 0;
};

}  // namespace aorta::detail
