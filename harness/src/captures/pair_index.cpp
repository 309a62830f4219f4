#include "captures/pair_index.hpp"

namespace aorta::detail {

namespace {

std::size_t spread(std::uint64_t key) noexcept {
  // A 64-bit multiplicative hash: ids are dense and small, so their bits need mixing.
  return static_cast<std::size_t>((key * 0x9E3779B97F4A7C15ULL) >> 20U);
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
  for (; m_slots[at].key != empty; at = (at + 1) & mask) {
    if (m_slots[at].key == key) {
      added = false;
      return m_slots[at].value;
    }
  }
  m_slots[at] = {key, fresh};
  ++m_size;
  added = true;
  return fresh;
}

}  // namespace aorta::detail
