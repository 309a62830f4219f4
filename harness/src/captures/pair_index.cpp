#include "captures/pair_index.hpp"

#include <algorithm>

namespace aorta::detail {

namespace {

std::size_t spread(std::uint64_t key) noexcept {
  // Every bit of the key must reach the low bits the table masks: a multiply alone carries a
  // bit only upwards, so pairs that differ in `high` alone (one kernel under 50,000 agents)
  // all fell into one cluster and each lookup walked it. MurmurHash3's 64-bit finalizer.
  key ^= key >> 33U;
  key *= 0xFF51AFD7ED558CCDULL;
  key ^= key >> 33U;
  key *= 0xC4CEB9FE1A85EC53ULL;
  key ^= key >> 33U;
  return static_cast<std::size_t>(key);
}

}  // namespace

void pair_index::grow() {
  std::vector<slot> slots(m_slots.empty() ? 1024 : m_slots.size() * 2);
  const std::size_t mask = slots.size() - 1;
  for (const slot& s : m_slots) {
    if (s.key == empty) continue;
    std::size_t at = spread(s.key) & mask;
    while (slots[at].key != empty) at = (at + 1) & mask;
    slots[at] = s;
  }
  m_slots = std::move(slots);
}

std::uint32_t pair_index::find_or_add(std::uint32_t high, std::uint32_t low, std::uint32_t fresh,
                                      bool& added) {
  if ((m_size + 1) * 2 > m_slots.size()) grow();
  const std::uint64_t key = (static_cast<std::uint64_t>(high) << 32U) | low;
  const std::size_t mask = m_slots.size() - 1;
  std::size_t at = spread(key) & mask;
  std::size_t probe = 1;
  for (; m_slots[at].key != empty; at = (at + 1) & mask, ++probe) {
    if (m_slots[at].key == key) {
      m_longest_probe = std::max(m_longest_probe, probe);
      added = false;
      return m_slots[at].value;
    }
  }
  m_longest_probe = std::max(m_longest_probe, probe);
  m_slots[at] = {key, fresh};
  ++m_size;
  added = true;
  return fresh;
}

}  // namespace aorta::detail
