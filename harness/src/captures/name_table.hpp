// Interned names: each distinct name stored once, in one byte arena, and known by a dense id.
// A frame tree holds hundreds of thousands of names; a hash map of std::string would spend two
// allocations and ~100 bytes on each, this table the name's bytes and ~12 bytes.
#pragma once

#include "aorta/shared_name.hpp"
#include "captures/byte_arena.hpp"

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace aorta::detail {

class name_table {
public:
  // The most bytes of names one table holds: offsets are 32 bits, half a std::size_t's (80,000
  // kernels' offsets were 0.6 MB of a rocpd read's peak).
  static constexpr std::size_t max_bytes = UINT32_MAX;
  // What intern returns for a new name that does not fit (past the byte limit, or with no id
  // left below this one): the reader refuses the capture, or drops what the table was for.
  // Checked only on the way to adding a name, so a lookup of a name held costs nothing more.
  static constexpr std::uint32_t full = UINT32_MAX;

  // A smaller limit than max_bytes is for tests of what the readers do past it.
  explicit name_table(std::size_t limit_bytes = max_bytes) noexcept
      : m_limit_bytes(std::min(limit_bytes, max_bytes)) {}

  [[nodiscard]] std::size_t limit_bytes() const noexcept { return m_limit_bytes; }
  // The id of `name`, adding it when new (`full` when it does not fit); ids are 0, 1, 2, ... in
  // first-seen order. Inline up to the name already held: a kernel trace looks one up per row.
  std::uint32_t intern(std::string_view name) { return intern(name, hash_of(name)); }
  // The same, for a caller that keeps its own index of names (the frame tree's children) and
  // hashed `name` once with hash_of.
  std::uint32_t intern(std::string_view name, std::uint32_t hash) {
    if (!m_slots.empty()) {
      const std::uint32_t held = m_slots[slot_of(name, hash)];
      if (held != 0) return held - 1;
    }
    return add(name, hash);
  }
  // Whether name `id` is `name`, compared in place: name(id)'s substr would check its bounds on
  // every row of a trace.
  [[nodiscard]] bool equals(std::uint32_t id, std::string_view name) const noexcept {
    const std::size_t start = m_starts[id];
    return std::size_t{m_starts[id + 1]} - start == name.size() &&
           (name.empty() || std::memcmp(m_bytes.data() + start, name.data(), name.size()) == 0);
  }
  // The id of `name` if it was interned; adds nothing (but the index, after release_index).
  [[nodiscard]] std::optional<std::uint32_t> find(std::string_view name);
  [[nodiscard]] std::string_view name(std::uint32_t id) const noexcept {
    return m_bytes.view().substr(m_starts[id], m_starts[id + 1] - m_starts[id]);
  }
  // Hands every name to `take(id, name)` as a shared_name into one block holding them all (the
  // table's own bytes, not a copy), ids in order, and empties the table.
  template <class Take> void share(const Take& take) {
    m_slots = std::vector<std::uint32_t>();
    m_hashes = std::vector<std::uint32_t>();
    const std::shared_ptr<const char> block = m_bytes.share();
    for (std::size_t id = 0; id < size(); ++id) {
      const std::size_t start = m_starts[id];
      take(static_cast<std::uint32_t>(id),
           shared_name(block, std::string_view(block.get() + start, m_starts[id + 1] - start)));
    }
    *this = name_table(m_limit_bytes);
  }
  [[nodiscard]] std::size_t size() const noexcept { return m_starts.size() - 1; }
  // Room for `names` more names of `bytes` bytes in all, so a reader that knows them up front
  // makes no doubling copy (which held old and new arrays at once).
  void reserve(std::size_t names, std::size_t bytes);
  // Frees the index (slots and hashes: ~16 bytes a name) and keeps the names and their ids, for
  // a reader done interning that only looks names up by id: 80,000 kernels' index was 1.3 MB at
  // a rocpd read's peak. The next intern or find rebuilds it.
  void release_index();

  // Every byte of `name` counts: kernel names often share long prefixes and suffixes and differ
  // only in the middle (template arguments), so a hash of a few words would pile them up.
  // Sixteen bytes per step in two independent lanes of multiply-rotate, mixed at the end.
  [[nodiscard]] static std::uint32_t hash_of(std::string_view name) noexcept {
    constexpr std::uint64_t odd = 0x9E3779B97F4A7C15;
    constexpr std::uint64_t other_odd = 0xC2B2AE3D27D4EB4F;
    const char* p = name.data();
    std::size_t left = name.size();
    std::uint64_t a = (left + 1) * odd;
    std::uint64_t b = other_odd;
    const auto word_at = [](const char* at) {
      std::uint64_t word = 0;
      std::memcpy(&word, at, 8);
      return word;
    };
    for (; left >= 16; p += 16, left -= 16) {
      a = std::rotl((a ^ word_at(p)) * odd, 29);
      b = std::rotl((b ^ word_at(p + 8)) * other_odd, 31);
    }
    std::uint64_t first = 0;
    std::uint64_t last = 0;
    if (name.size() >= 16) {
      // The last sixteen bytes, overlapping the words above: two loads, not a loop per byte.
      first = word_at(name.data() + name.size() - 16);
      last = word_at(name.data() + name.size() - 8);
    } else if (left >= 8) {
      first = word_at(p);
      last = word_at(name.data() + name.size() - 8);
    } else {
      first = short_tail(p, left);
    }
    a = (a ^ first) * odd;
    b = (b ^ last) * other_odd;
    std::uint64_t h = a ^ std::rotl(b, 32);
    h ^= h >> 32;
    h *= odd;
    h ^= h >> 29;
    return static_cast<std::uint32_t>(h);
  }

private:
  // The bytes of a name shorter than eight as one integer, without a loop per byte: two
  // overlapping 4-byte loads from 4 bytes up; below, the first, middle and last byte (all of
  // them). With the length mixed in by hash_of, names of one length map to distinct integers.
  [[nodiscard]] static std::uint64_t short_tail(const char* p, std::size_t size) noexcept {
    const auto half_at = [](const char* at) {
      std::uint32_t half = 0;
      std::memcpy(&half, at, 4);
      return static_cast<std::uint64_t>(half);
    };
    if (size >= 4) return half_at(p) | (half_at(p + size - 4) << 32U);
    if (size == 0) return 0;
    const auto byte = [p](std::size_t i) {
      return static_cast<std::uint64_t>(static_cast<unsigned char>(p[i]));
    };
    return byte(0) | (byte(size / 2) << 8U) | (byte(size - 1) << 16U);
  }
  // Adds `name`, not held, whose hash is `hash`.
  std::uint32_t add(std::string_view name, std::uint32_t hash);
  [[nodiscard]] bool index_released() const noexcept { return m_hashes.size() != size(); }
  // Hashes every name again and rehashes, after release_index.
  void restore_index();
  void grow();
  void rehash(std::size_t slot_count);
  // The slot holding `name`, or the empty slot where it would go; the table has slots.
  [[nodiscard]] std::size_t slot_of(std::string_view name, std::uint32_t hash) const noexcept {
    const std::size_t mask = m_slots.size() - 1;
    std::size_t at = hash & mask;
    for (; m_slots[at] != 0; at = (at + 1) & mask) {
      const std::uint32_t id = m_slots[at] - 1;
      if (m_hashes[id] == hash && equals(id, name)) return at;
    }
    return at;
  }

  byte_arena m_bytes;                      // every name, back to back
  std::vector<std::uint32_t> m_starts{0};  // name i is m_bytes[m_starts[i], m_starts[i+1])
  std::vector<std::uint32_t> m_slots;      // open addressing: id + 1, 0 = empty
  std::vector<std::uint32_t> m_hashes;     // the hash of each name, for growing
  std::size_t m_limit_bytes;  // at most max_bytes; smaller only in tests
};

}  // namespace aorta::detail
