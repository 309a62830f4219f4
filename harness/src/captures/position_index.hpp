// Positions of a vector's elements by key, in one flat array of (hash, position) slots. The keys
// stay in the elements (the caller compares them), so an entry costs 16 to 64 bytes and no
// allocation: a std::unordered_map with a string node per key spent most of a 200,000-GPU device
// table's read in malloc, rehash walks over nodes and cache misses.
#pragma once

#include <cstddef>
#include <functional>
#include <string_view>
#include <vector>

namespace aorta::detail {

class position_index {
public:
  static constexpr std::size_t absent = static_cast<std::size_t>(-1);

  // The position stored under `hash` whose element `is_key(position)` accepts; absent if none.
  template <class IsKey>
  [[nodiscard]] std::size_t find(std::size_t hash, IsKey&& is_key) const {
    if (m_slots.empty()) return absent;
    const std::size_t mask = m_slots.size() - 1;
    for (std::size_t i = hash & mask;; i = (i + 1) & mask) {
      const slot& s = m_slots[i];
      if (s.position == absent) return absent;
      if (s.hash == hash && is_key(s.position)) return s.position;
    }
  }

  // Stores `position` under `hash`; the caller has made sure its key is not stored yet.
  void add(std::size_t hash, std::size_t position) {
    // At most half full, so a probe ends at an empty slot after a few steps.
    if (2 * (m_used + 1) > m_slots.size()) grow();
    place(hash, position);
    ++m_used;
  }

  [[nodiscard]] std::size_t size() const noexcept { return m_used; }

private:
  struct slot {
    std::size_t hash = 0;
    std::size_t position = absent;
  };

  void place(std::size_t hash, std::size_t position) {
    const std::size_t mask = m_slots.size() - 1;
    std::size_t i = hash & mask;
    while (m_slots[i].position != absent) i = (i + 1) & mask;
    m_slots[i] = {hash, position};
  }

  // Doubles the table; the stored hashes move without touching the elements.
  void grow() {
    std::vector<slot> old(m_slots.empty() ? 16 : 2 * m_slots.size());
    old.swap(m_slots);
    for (const slot& s : old)
      if (s.position != absent) place(s.hash, s.position);
  }

  std::vector<slot> m_slots;  // a power of two in size
  std::size_t m_used = 0;
};

// A hash of two strings together ("a","bc" and "ab","c" differ), for keys made of two names.
[[nodiscard]] inline std::size_t hash_of_pair(std::string_view first, std::string_view second) {
  const std::hash<std::string_view> hash;
  const std::size_t h = hash(first);
  return h ^ (hash(second) + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2));
}

}  // namespace aorta::detail
