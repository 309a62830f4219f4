// A hash map keyed by std::string that is looked up by std::string_view, so a reader can ask
// whether a name is known without allocating a string per lookup.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>
#include <unordered_map>

namespace aorta::detail {

struct transparent_string_hash {
  using is_transparent = void;
  std::size_t operator()(std::string_view s) const noexcept {
    return std::hash<std::string_view>{}(s);
  }
};

template <class Value>
using string_keyed_map =
    std::unordered_map<std::string, Value, transparent_string_hash, std::equal_to<>>;

}  // namespace aorta::detail
