// Emptying a value so that its memory goes back now, not when the value is destroyed.
// `value = {}` does not always do that: for a std::vector it picks the initializer_list
// assignment, which keeps the capacity; for a class holding a std::string (name_table), the
// string's move assignment from an empty string copies into the buffer it already has.
#pragma once

#include <utility>

namespace aorta::detail {

// Moves `value` into a temporary that dies here (every member's storage with it), then gives it
// a fresh value, so the class's invariants hold for whoever uses it next.
template <class T> void free_storage(T& value) {
  { const T gone(std::move(value)); }
  value = T();
}

}  // namespace aorta::detail
