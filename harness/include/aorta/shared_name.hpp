// An immutable name that shares its bytes. A reader that interned a capture's kernel names in one
// block hands each kernel a view of that block and a share of its ownership, so 80,000 kernels
// cost their names' bytes once, not a heap block and a 32-byte std::string each. Copies share
// the block; a name made from a string owns a block of its own. Read it as a std::string_view.
#pragma once

#include <compare>
#include <cstddef>
#include <iosfwd>
#include <memory>
#include <string>
#include <string_view>

namespace aorta {

class shared_name {
public:
  shared_name() noexcept = default;
  // A copy of `text` in a block of its own.
  shared_name(std::string_view text);  // NOLINT(google-explicit-constructor): a name is text
  shared_name(const std::string& text) : shared_name(std::string_view(text)) {}  // NOLINT
  shared_name(const char* text) : shared_name(std::string_view(text)) {}         // NOLINT
  // `text`, which lies inside `block`; the name keeps the block alive.
  shared_name(const std::shared_ptr<const char>& block, std::string_view text) noexcept
      : m_data(block, text.data()), m_size(text.size()) {}

  [[nodiscard]] std::string_view view() const noexcept { return {m_data.get(), m_size}; }
  operator std::string_view() const noexcept { return view(); }  // NOLINT: reads as text
  [[nodiscard]] std::string str() const { return std::string(view()); }
  // So code written when the name was a std::string still compiles; it copies the bytes.
  operator std::string() const { return str(); }  // NOLINT(google-explicit-constructor)
  [[nodiscard]] const char* data() const noexcept { return m_data.get(); }
  [[nodiscard]] std::size_t size() const noexcept { return m_size; }
  [[nodiscard]] bool empty() const noexcept { return m_size == 0; }

  friend bool operator==(const shared_name& a, const shared_name& b) noexcept {
    return a.view() == b.view();
  }
  friend bool operator==(const shared_name& a, std::string_view b) noexcept {
    return a.view() == b;
  }
  friend bool operator==(const shared_name& a, const char* b) noexcept { return a.view() == b; }
  friend bool operator==(const shared_name& a, const std::string& b) noexcept {
    return a.view() == b;
  }
  friend std::strong_ordering operator<=>(const shared_name& a, const shared_name& b) noexcept {
    return a.view() <=> b.view();
  }
  friend std::strong_ordering operator<=>(const shared_name& a, std::string_view b) noexcept {
    return a.view() <=> b;
  }

private:
  std::shared_ptr<const char> m_data;  // the first byte, owning the block it lies in
  std::size_t m_size = 0;
};

std::ostream& operator<<(std::ostream& out, const shared_name& name);

}  // namespace aorta
