#include "captures/name_table.hpp"

#include <cstring>

namespace aorta::detail {

namespace {

std::uint64_t load_word(const char* p) noexcept {
  std::uint64_t word = 0;
  std::memcpy(&word, p, 8);
  return word;
}

std::uint64_t load_half(const char* p) noexcept {
  std::uint32_t half = 0;
  std::memcpy(&half, p, 4);
  return half;
}

// The bytes of a name shorter than eight, as one integer, without a loop per byte: two
// overlapping 4-byte loads from 4 bytes up, the first, middle and last byte below. With the
// length mixed in by the caller, names of one length map to distinct integers.
std::uint64_t short_tail(const char* p, std::size_t size) noexcept {
  if (size >= 4) return load_half(p) | (load_half(p + size - 4) << 32U);
  if (size == 0) return 0;
  const auto byte = [p](std::size_t i) {
    return static_cast<std::uint64_t>(static_cast<unsigned char>(p[i]));
  };
  return byte(0) | (byte(size / 2) << 8U) | (byte(size - 1) << 16U);
}

}  // namespace

// Eight bytes per multiply: a kernel trace looks up one name per row, and std::hash's byte-wise
// mixing was a tenth of reading it. Multiply-xorshift rounds spread names that differ only in
// their last digits (kernel_1, kernel_2, ...) over all the bits the slots use.
std::uint32_t name_table::hash(std::string_view name) noexcept {
  constexpr std::uint64_t odd = 0x9E3779B97F4A7C15;
  std::uint64_t h = (name.size() + 1) * odd;
  const char* p = name.data();
  std::size_t left = name.size();
  for (; left >= 8; p += 8, left -= 8) {
    h = (h ^ load_word(p)) * odd;
    h ^= h >> 29;
  }
  // The last eight bytes, overlapping the words above: one load, not a loop per byte.
  const std::uint64_t tail = left == 0            ? 0
                             : name.size() >= 8 ? load_word(name.data() + name.size() - 8)
                                                : short_tail(p, left);
  h = (h ^ tail) * odd;
  h ^= h >> 32;
  h *= odd;
  h ^= h >> 29;
  return static_cast<std::uint32_t>(h);
}

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

std::size_t name_table::slot_of(std::string_view name, std::uint32_t name_hash) const {
  const std::size_t mask = m_slots.size() - 1;
  std::size_t at = name_hash & mask;
  for (; m_slots[at] != 0; at = (at + 1) & mask) {
    const std::uint32_t id = m_slots[at] - 1;
    if (m_hashes[id] == name_hash && equals(id, name)) return at;
  }
  return at;
}

std::optional<std::uint32_t> name_table::find(std::string_view name) const {
  if (m_slots.empty()) return std::nullopt;
  const std::size_t at = slot_of(name, hash(name));
  if (m_slots[at] == 0) return std::nullopt;
  return m_slots[at] - 1;
}

std::uint32_t name_table::intern(std::string_view name, std::uint32_t name_hash) {
  if ((size() + 1) * 2 > m_slots.size()) grow();
  const std::size_t at = slot_of(name, name_hash);
  if (m_slots[at] != 0) return m_slots[at] - 1;
  const auto id = static_cast<std::uint32_t>(size());
  m_bytes.append(name);
  m_starts.push_back(m_bytes.size());
  m_hashes.push_back(name_hash);
  m_slots[at] = id + 1;
  return id;
}

}  // namespace aorta::detail
