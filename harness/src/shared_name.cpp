#include "aorta/shared_name.hpp"

#include <cstring>
#include <ostream>

namespace aorta {

shared_name::shared_name(std::string_view text) : m_size(text.size()) {
  if (text.empty()) return;
  std::shared_ptr<char[]> block = std::make_shared_for_overwrite<char[]>(text.size());
  char* bytes = block.get();
  std::memcpy(bytes, text.data(), text.size());
  m_data = std::shared_ptr<const char>(std::move(block), bytes);
}

std::ostream& operator<<(std::ostream& out, const shared_name& name) {
  return out << name.view();
}

}  // namespace aorta
