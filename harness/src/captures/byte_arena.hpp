// The bytes of a name table: names back to back in one heap block, which can be handed over
// whole as shared ownership (shared_name views of it), cut to its size first so that a block
// grown by doubling does not keep its unused tail.
#pragma once

#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>
#include <utility>
#include <string_view>

namespace aorta::detail {

class byte_arena {
public:
  byte_arena() = default;
  byte_arena(const byte_arena& other) { append(other.view()); }
  byte_arena& operator=(const byte_arena& other) {
    if (this != &other) {
      byte_arena copy(other);
      *this = std::move(copy);
    }
    return *this;
  }
  byte_arena(byte_arena&& other) noexcept
      : m_data(std::move(other.m_data)), m_size(other.m_size), m_capacity(other.m_capacity) {
    other.m_size = 0;
    other.m_capacity = 0;
  }
  byte_arena& operator=(byte_arena&& other) noexcept {
    m_data = std::move(other.m_data);
    m_size = other.m_size;
    m_capacity = other.m_capacity;
    other.m_size = 0;
    other.m_capacity = 0;
    return *this;
  }
  ~byte_arena() = default;

  [[nodiscard]] const char* data() const noexcept { return m_data.get(); }
  [[nodiscard]] std::size_t size() const noexcept { return m_size; }
  [[nodiscard]] std::string_view view() const noexcept { return {m_data.get(), m_size}; }

  void reserve(std::size_t capacity) {
    if (capacity > m_capacity) resize_block(capacity);
  }
  void append(std::string_view bytes) {
    if (bytes.empty()) return;
    if (bytes.size() > m_capacity - m_size) {
      // Doubling, as std::string: a reader that reserved exactly never comes here.
      std::size_t capacity = m_capacity < 256 ? 256 : m_capacity * 2;
      if (capacity - m_size < bytes.size()) capacity = m_size + bytes.size();
      resize_block(capacity);
    }
    std::memcpy(m_data.get() + m_size, bytes.data(), bytes.size());
    m_size += bytes.size();
  }
  // The block, exactly size() bytes, as shared ownership; the arena is empty after. Null when
  // the arena holds no bytes.
  [[nodiscard]] std::shared_ptr<const char> share() {
    if (m_size == 0) {
      m_data.reset();
      m_capacity = 0;
      return {};
    }
    if (m_capacity != m_size) resize_block(m_size);
    std::shared_ptr<const char> block(m_data.release(), freer{});
    m_size = 0;
    m_capacity = 0;
    return block;
  }

private:
  struct freer {
    void operator()(char* bytes) const noexcept { std::free(bytes); }
  };
  void resize_block(std::size_t capacity) {
    // NOLINTNEXTLINE(cppcoreguidelines-no-malloc): realloc is what shrinks a block in place.
    void* grown = std::realloc(m_data.get(), capacity);
    if (grown == nullptr) throw std::bad_alloc();
    (void)m_data.release();
    m_data.reset(static_cast<char*>(grown));
    m_capacity = capacity;
  }

  std::unique_ptr<char, freer> m_data;
  std::size_t m_size = 0;
  std::size_t m_capacity = 0;
};

}  // namespace aorta::detail
