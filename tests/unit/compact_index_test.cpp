// The one flat index behind the frame tree, the hatchet device and scope tables and the scope
// checks: ids stay dense and stable through growth, and keys whose hashes collide are still
// told apart by the caller's own elements.
#include "captures/compact_index.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace aorta {
namespace {

using keys = std::vector<std::pair<std::string, std::string>>;

std::uint32_t id_of(detail::compact_index& index, keys& stored, const std::string& first,
                    const std::string& second, std::uint32_t hash) {
  const std::uint32_t id = index.find_or_insert(hash, stored.size(), [&](std::uint32_t at) {
    return stored[at].first == first && stored[at].second == second;
  });
  if (id == stored.size()) stored.emplace_back(first, second);
  return id;
}

TEST(CompactIndex, IdsAreDenseAndFoundAgainAfterGrowing) {
  detail::compact_index index;
  keys stored;
  constexpr std::uint32_t count = 40'000;  // past several doublings of the 1,024-slot start
  for (std::uint32_t i = 0; i < count; ++i) {
    const std::string id = std::to_string(i);
    ASSERT_EQ(id_of(index, stored, "CUDA", id, detail::compact_hash("CUDA", id)), i);
  }
  for (std::uint32_t i = 0; i < count; i += 7) {
    const std::string id = std::to_string(i);
    EXPECT_EQ(id_of(index, stored, "CUDA", id, detail::compact_hash("CUDA", id)), i);
  }
  EXPECT_EQ(stored.size(), count);
}

// Every key under one hash: only the caller's comparison separates them.
TEST(CompactIndex, CollidingHashesKeepTheirOwnIds) {
  detail::compact_index index;
  keys stored;
  for (std::uint32_t i = 0; i < 3'000; ++i)
    ASSERT_EQ(id_of(index, stored, "k", std::to_string(i), 42U), i);
  for (std::uint32_t i = 0; i < 3'000; i += 11)
    EXPECT_EQ(id_of(index, stored, "k", std::to_string(i), 42U), i);
  EXPECT_EQ(id_of(index, stored, "k2", "0", 42U), 3'000U);
}

TEST(CompactIndex, PairHashSeparatesWhereTheSplitFalls) {
  EXPECT_NE(detail::compact_hash("a", "bc"), detail::compact_hash("ab", "c"));
  EXPECT_NE(detail::compact_hash("", "ab"), detail::compact_hash("ab", ""));
  EXPECT_EQ(detail::compact_hash("HIP", "3"), detail::compact_hash("HIP", "3"));
}

TEST(CompactIndex, RefusesMoreIdsThanFit) {
  detail::compact_index index;
  EXPECT_THROW(index.make_room(detail::compact_index::max_ids), std::length_error);
}

}  // namespace
}  // namespace aorta
