#include "baseline/card_identity.hpp"

#include <fmt/format.h>

namespace aorta::detail {
namespace {

std::optional<std::string> card_of(const measured_test& test) {
  const auto found = test.fingerprint.find(std::string(card_key));
  if (found == test.fingerprint.end() || found->second.empty()) return std::nullopt;
  return found->second;
}

}  // namespace

std::optional<std::string> card_difference(const measured_test& base, const measured_test& fresh,
                                           bool required) {
  const auto old_card = card_of(base);
  const auto new_card = card_of(fresh);
  if (old_card && new_card) {
    if (*old_card == *new_card) return std::nullopt;
    return fmt::format("the baseline was recorded on card {}, this run is on card {} (same model "
                       "and driver): cards of one model differ by up to 22%, so a timed verdict "
                       "may be the card's. Record a baseline on this card, or require one card "
                       "with the gate item 'card same'",
                       *old_card, *new_card);
  }
  if (!required || (!old_card && !new_card && base.fingerprint.count("gpu") == 0)) return std::nullopt;
  return fmt::format("the gate requires the same card ('card same') but {} names none; record the "
                     "baseline again with this aorta on the lane's card",
                     old_card ? "this run" : "the baseline");
}

}  // namespace aorta::detail
