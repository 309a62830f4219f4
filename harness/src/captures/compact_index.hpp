// Dense ids (0, 1, 2, ...) of elements the caller holds, by a 32-bit hash of their keys, in one
// flat array of 8-byte (hash, id + 1) slots at most half full. The caller confirms a match on
// its own element, which it reads next anyway: a lookup touches the slot and the element, not
// also a copy of the key in a wider slot (the frame tree's lookups per event are its cost).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace aorta::detail {

class compact_index {
public:
  struct probe {
    std::size_t slot;  // where an absent key would go
    std::uint32_t id;
    bool found;
  };

  // Room for one id beyond `count` stored: the slot a later find() returns stays valid for insert.
  void make_room(std::size_t count) {
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

private:
  struct slot {
    std::uint32_t hash = 0;
    std::uint32_t id_plus_one = 0;  // 0: empty
  };

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

}  // namespace aorta::detail
