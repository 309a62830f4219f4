// Interned names: each distinct name stored once, in one byte arena, and known by a dense id.
// A frame tree holds hundreds of thousands of names; a hash map of std::string would spend two
// allocations and ~100 bytes on each, this table the name's bytes and ~12 bytes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace aorta::detail {

class name_table {
public:
  // The hash the table files `name` under: a caller that keeps its own index of names (the
  // frame tree's children) hashes each name once and passes the hash to intern().
  [[nodiscard]] static std::uint32_t hash(std::string_view name) noexcept;
  // The id of `name`, adding it when new; ids are 0, 1, 2, ... in first-seen order.
  std::uint32_t intern(std::string_view name) { return intern(name, hash(name)); }
  std::uint32_t intern(std::string_view name, std::uint32_t name_hash);
  // Whether name `id` is `name`, compared in place (no bounds-checked substr per lookup).
  [[nodiscard]] bool equals(std::uint32_t id, std::string_view name) const noexcept {
    const std::size_t start = m_starts[id];
    return m_starts[id + 1] - start == name.size() &&
           (name.empty() || std::memcmp(m_bytes.data() + start, name.data(), name.size()) == 0);
  }
  // The id of `name` if it was interned; adds nothing.
  [[nodiscard]] std::optional<std::uint32_t> find(std::string_view name) const;
  [[nodiscard]] std::string_view name(std::uint32_t id) const noexcept {
    return std::string_view(m_bytes).substr(m_starts[id], m_starts[id + 1] - m_starts[id]);
  }
  [[nodiscard]] std::size_t size() const noexcept { return m_starts.size() - 1; }
  // Room for `names` more names of `bytes` bytes in all, so a reader that knows them up front
  // makes no doubling copy (which held old and new arrays at once).
  void reserve(std::size_t names, std::size_t bytes);

private:
  void grow();
  void rehash(std::size_t slot_count);
  // The slot holding `name`, or the empty slot where it would go.
  [[nodiscard]] std::size_t slot_of(std::string_view name, std::uint32_t name_hash) const;

  std::string m_bytes;                   // every name, back to back
  std::vector<std::size_t> m_starts{0};  // name i is m_bytes[m_starts[i], m_starts[i+1])
  std::vector<std::uint32_t> m_slots;    // open addressing: id + 1, 0 = empty
  std::vector<std::uint32_t> m_hashes;   // the hash of each name, for growing
};

}  // namespace aorta::detail
