// Ranks that ran at once on one card. Such ranks time-slice the card, so each one's kernel times
// hold its peers' work too: a rank against its peers then measures who started first, not the
// rank (docs/distributed.md, "Ranks sharing a card"). Timed straggler judgements refuse them
// unless the recipe says the ranks take the card in turn while they measure (`ranks_serialized`).
#pragma once

#include <string>
#include <vector>

namespace aorta::detail {

// Where one rank ran in one trial, as rank.json tells.
struct rank_on_card {
  int rank = 0;
  std::string host;
  std::string card;  // empty when nothing told
};

// A card's identity across hosts: a UUID (`GPU-…`, `MIG-…`) names one card anywhere; an index or
// a bus id ("GPU index 0", "GPU at 0000:17:00.0") only on its host, so it is kept with the host
// ("node7: GPU index 0"). Empty for an unknown card.
[[nodiscard]] std::string card_identity_of(const std::string& host, const std::string& card);

struct shared_card {
  std::string card;        // card_identity_of
  std::vector<int> ranks;  // ascending, two or more
};

// Every card that two or more ranks of one trial ran on; ranks with no known card share nothing.
[[nodiscard]] std::vector<shared_card> shared_cards(const std::vector<rank_on_card>& trial);

// "ranks 0, 1, 2, 3 shared GPU-eafdb305-…" for each shared card, joined with "; ".
[[nodiscard]] std::string describe_shared_cards(const std::vector<shared_card>& shared);

// Why a timed straggler judgement over `shared` is refused, with the fix (the reason a check or
// a gate row carries); `where` says which trial(s), e.g. "in trial 0".
[[nodiscard]] std::string shared_card_refusal(const std::vector<shared_card>& shared,
                                              const std::string& where);

}  // namespace aorta::detail
