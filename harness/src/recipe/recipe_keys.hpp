// The top-level keys a recipe may hold: those aorta reads, the original's probe-mode keys it
// accepts and ignores, and the refusal (with the allowed list and a near match) of any other.
#pragma once

#include "recipe/yaml_read.hpp"

#include <string_view>

namespace aorta::detail {

// A probe-mode key of the original that steers machinery aorta does not have: accepted, so
// recipes stay portable, and reported as ignored.
[[nodiscard]] bool is_ignored_probe_key(std::string_view key);

// Throws the config error for a key no recipe may hold, naming the allowed keys.
[[noreturn]] void reject_unknown_key(const map_entry& entry);

}  // namespace aorta::detail
