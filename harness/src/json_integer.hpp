// A whole number read back from a JSON file aorta did not necessarily write (result.json, a
// baseline's trials). nlohmann's get<T>() converts a float or an out-of-range integer without a
// word: 1e300 into an int is undefined behaviour, -1 into a count becomes 2^64 - 1. Here such a
// value is refused instead.
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <type_traits>
#include <utility>

namespace aorta::detail {

// `value` as T when it is a JSON integer within T's range; nullopt for anything else (a float,
// a string, a number past T's range).
template <typename T>
[[nodiscard]] std::optional<T> json_integer(const nlohmann::json& value) {
  static_assert(std::is_integral_v<T> && !std::is_same_v<T, bool>);
  if (value.is_number_unsigned()) {
    const auto v = value.get<std::uint64_t>();
    if (std::in_range<T>(v)) return static_cast<T>(v);
  } else if (value.is_number_integer()) {
    const auto v = value.get<std::int64_t>();
    if (std::in_range<T>(v)) return static_cast<T>(v);
  }
  return std::nullopt;
}

}  // namespace aorta::detail
