#include "captures/name_table.hpp"

#include <cstring>

namespace aorta::detail {

void name_table::grow() {
  // Kept at most half full, so a probe ends after a step or two.
  rehash(m_slots.empty() ? 1024 : m_slots.size() * 2);
}

void name_table::reserve(std::size_t names, std::size_t bytes) {
  const std::size_t total = size() + names;
  m_bytes.reserve(m_bytes.size() + bytes);
  m_starts.reserve(total + 1);
  m_hashes.reserve(total);
  std::size_t slot_count = m_slots.empty() ? 1024 : m_slots.size();
  while ((total + 1) * 2 > slot_count) slot_count *= 2;
  if (slot_count != m_slots.size()) rehash(slot_count);
}

void name_table::rehash(std::size_t slot_count) {
  std::vector<std::uint32_t> slots(slot_count, 0);
  const std::size_t mask = slots.size() - 1;
  for (std::uint32_t id = 0; id < m_hashes.size(); ++id) {
    std::size_t at = m_hashes[id] & mask;
    while (slots[at] != 0) at = (at + 1) & mask;
    slots[at] = id + 1;
  }
  m_slots = std::move(slots);
}

void name_table::release_index() {
  m_slots = std::vector<std::uint32_t>();
  m_hashes = std::vector<std::uint32_t>();
}

void name_table::restore_index() {
  m_hashes.reserve(size());
  for (std::size_t id = m_hashes.size(); id < size(); ++id)
    m_hashes.push_back(hash_of(name(static_cast<std::uint32_t>(id))));
  std::size_t slot_count = 1024;
  while ((size() + 1) * 2 > slot_count) slot_count *= 2;
  rehash(slot_count);
}

std::optional<std::uint32_t> name_table::find(std::string_view name) {
  if (index_released()) restore_index();
  if (m_slots.empty()) return std::nullopt;
  const std::size_t at = slot_of(name, hash_of(name));
  if (m_slots[at] == 0) return std::nullopt;
  return m_slots[at] - 1;
}

std::uint32_t name_table::add(std::string_view name, std::uint32_t hash) {
  if (index_released()) {
    restore_index();
    // The name may be held: intern found no slots to look in.
    const std::uint32_t held = m_slots[slot_of(name, hash)];
    if (held != 0) return held - 1;
  }
  // Past the limit an offset would wrap, or an id reach `full` (or wrap the slots' id + 1).
  if (name.size() > m_limit_bytes - m_bytes.size() || size() >= full - 1) return full;
  if ((size() + 1) * 2 > m_slots.size()) grow();
  const std::size_t at = slot_of(name, hash);
  const auto id = static_cast<std::uint32_t>(size());
  m_bytes.append(name);
  m_starts.push_back(static_cast<std::uint32_t>(m_bytes.size()));
  m_hashes.push_back(hash);
  m_slots[at] = id + 1;
  return id;
}

}  // namespace aorta::detail
