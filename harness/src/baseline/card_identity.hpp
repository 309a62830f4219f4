// The card a baseline was recorded on (fingerprint key `gpu_uuid`, nvidia-smi's UUID). GPUs of
// one model differ by up to 22%, so unlike the rest of the fingerprint a different card is not a
// skip by default: the gate says so in its verdict, and a lane that owns its card can require it
// (gate item `card same`).
#pragma once

#include "baseline/measured_series.hpp"

#include <optional>
#include <string>
#include <string_view>

namespace aorta::detail {

inline constexpr std::string_view card_key = "gpu_uuid";

// What to tell the user when base and fresh name different cards, or when `required` and one of
// them names none; nullopt when they name the same card (or neither side names one and it is not
// required).
[[nodiscard]] std::optional<std::string> card_difference(const measured_test& base,
                                                         const measured_test& fresh, bool required);

}  // namespace aorta::detail
