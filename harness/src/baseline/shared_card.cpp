#include "baseline/shared_card.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <map>

namespace aorta::detail {

std::string card_identity_of(const std::string& host, const std::string& card) {
  if (card.empty()) return "";
  if (card.starts_with("GPU-") || card.starts_with("MIG-")) return card;
  return host.empty() ? card : fmt::format("{}: {}", host, card);
}

std::vector<shared_card> shared_cards(const std::vector<rank_on_card>& trial) {
  std::map<std::string, std::vector<int>> by_card;
  for (const auto& one : trial) {
    const std::string key = card_identity_of(one.host, one.card);
    if (!key.empty()) by_card[key].push_back(one.rank);
  }
  std::vector<shared_card> shared;
  for (auto& [card, ranks] : by_card) {
    if (ranks.size() < 2) continue;
    std::sort(ranks.begin(), ranks.end());
    shared.push_back({card, std::move(ranks)});
  }
  return shared;
}

std::string describe_shared_cards(const std::vector<shared_card>& shared) {
  std::vector<std::string> parts;
  for (const auto& one : shared) {
    parts.push_back(fmt::format("ranks {} shared {}", fmt::join(one.ranks, ", "), one.card));
  }
  return fmt::format("{}", fmt::join(parts, "; "));
}

std::string shared_card_refusal(const std::vector<shared_card>& shared, const std::string& where) {
  return fmt::format(
      "{} {}, running at once: ranks sharing a card time-slice it, so each one's kernel time holds "
      "its peers' "
      "work and a rank against its peers measures who started first, not the rank. Fix: run one "
      "rank per card (CUDA_VISIBLE_DEVICES per rank), or make the ranks take the card in turn "
      "while they measure (a lock around the timed region) and say so with the recipe key "
      "'ranks_serialized: true'",
      describe_shared_cards(shared), where);
}

}  // namespace aorta::detail
