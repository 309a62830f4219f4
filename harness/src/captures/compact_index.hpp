// Dense ids (0, 1, 2, ...) of elements the caller holds, by a 32-bit hash of their keys, in one
// flat array of 8-byte (hash, id + 1) slots at most half full. The keys stay in the caller's
// elements, which it confirms a match on and reads next anyway: a lookup touches the slot and the
// element, and an entry costs no allocation. A std::unordered_map with a string node per key spent
// most of a 200,000-GPU device table's read in malloc and cache misses; the frame tree's child
// lookups per event are its whole cost.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <limits>
#include <stdexcept>
#include <string_view>
#include <vector>

namespace aorta::detail {

class compact_index {
public:
  // The ids of an index fit 32 bits; one slot value is kept for "empty".
  static constexpr std::size_t max_ids = std::numeric_limits<std::uint32_t>::max() - 1;

  struct probe {
    std::size_t slot;  // where an absent key would go
    std::uint32_t id;
    bool found;
  };

  // Room for one id beyond `count` stored: the slot a later find() returns stays valid for insert.
  void make_room(std::size_t count) {
    // Unreachable under the readers' input limits; checked so that an id can never wrap.
    if (count >= max_ids)
      throw std::length_error("compact_index: more than 4,294,967,294 distinct keys");
    if ((count + 1) * 2 > m_slots.size()) grow();
  }

  // The id whose element `is_key(id)` accepts, or where to insert it; after make_room().
  template <class IsKey>
  [[nodiscard]] probe find(std::uint32_t hash, IsKey&& is_key) const {
    const std::size_t mask = m_slots.size() - 1;
    std::size_t at = hash & mask;
    for (; m_slots[at].id_plus_one != 0; at = (at + 1) & mask) {
      const std::uint32_t id = m_slots[at].id_plus_one - 1;
      if (m_slots[at].hash == hash && is_key(id)) return {at, id, true};
    }
    return {at, 0, false};
  }

  void insert(const probe& where, std::uint32_t hash, std::uint32_t id) {
    m_slots[where.slot] = {hash, id + 1};
  }

  // The id of the element `is_key` accepts; else `count` (the id the caller's next element takes,
  // which the caller must then append). One probe either way.
  template <class IsKey>
  [[nodiscard]] std::uint32_t find_or_insert(std::uint32_t hash, std::size_t count,
                                             IsKey&& is_key) {
    make_room(count);
    const probe found = find(hash, is_key);
    if (found.found) return found.id;
    const auto id = static_cast<std::uint32_t>(count);
    insert(found, hash, id);
    return id;
  }

private:
  struct slot {
    std::uint32_t hash = 0;
    std::uint32_t id_plus_one = 0;  // 0: empty
  };

  // Doubles the table; the stored hashes move without touching the elements.
  void grow() {
    std::vector<slot> slots(m_slots.empty() ? 1024 : m_slots.size() * 2);
    const std::size_t mask = slots.size() - 1;
    for (const slot& s : m_slots) {
      if (s.id_plus_one == 0) continue;
      std::size_t at = s.hash & mask;
      while (slots[at].id_plus_one != 0) at = (at + 1) & mask;
      slots[at] = s;
    }
    m_slots = std::move(slots);
  }

  std::vector<slot> m_slots;  // a power of two in size
};

// A 32-bit hash of one string, for a compact_index.
[[nodiscard]] inline std::uint32_t compact_hash(std::string_view text) {
  const std::size_t h = std::hash<std::string_view>{}(text);
  return static_cast<std::uint32_t>(h ^ (h >> 32));
}

// A 32-bit hash of two strings together ("a","bc" and "ab","c" differ), for keys of two names.
[[nodiscard]] inline std::uint32_t compact_hash(std::string_view first, std::string_view second) {
  const std::hash<std::string_view> hash;
  const std::size_t h = hash(first);
  const std::size_t both = h ^ (hash(second) + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2));
  return static_cast<std::uint32_t>(both ^ (both >> 32));
}

}  // namespace aorta::detail
