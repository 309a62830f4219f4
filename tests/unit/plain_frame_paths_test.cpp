// frames_selected_by_plain_path (aorta/scope_path.hpp) against frame_check_path, its definition:
// the one-pass answer must agree with the per-frame resolve on every frame of trees whose names
// contain each other, repeat, are empty or are not UTF-8.
#include "aorta/scope_path.hpp"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

namespace {

using aorta::capture;
using aorta::context_frame;

void expect_agrees(const capture& c) {
  const std::vector<bool> plain = aorta::frames_selected_by_plain_path(c);
  ASSERT_EQ(plain.size(), c.frames.size());
  for (std::size_t f = 0; f < c.frames.size(); ++f) {
    const std::string path = aorta::frame_check_path(c, f);
    EXPECT_EQ(plain[f], !path.starts_with("/^")) << "frame " << f << ": " << path;
  }
}

TEST(PlainFramePaths, NamesThatContainEachOther) {
  capture c;
  // decode is inside decode_step and predecode; a/b holds the separator; x.y a metacharacter.
  c.frames = {{"decode", context_frame::no_parent},
              {"decode_step", context_frame::no_parent},
              {"gemm", 0},
              {"gemm", 1},
              {"predecode", context_frame::no_parent},
              {"gemm_tail", 4},
              {"a/b", context_frame::no_parent},
              {"x.y", 6},
              {"", context_frame::no_parent},
              {"below_empty", 8},
              {"\xff\xfe", context_frame::no_parent},
              {"below_bad_utf8", 10},
              {"caf\xc3\xa9", context_frame::no_parent},
              {"tail", 12},
              {"", 13},
              {"below_inner_empty", 14}};
  expect_agrees(c);
  const std::vector<bool> plain = aorta::frames_selected_by_plain_path(c);
  EXPECT_FALSE(plain[0]);   // decode also selects decode_step and predecode
  EXPECT_TRUE(plain[1]);    // decode_step
  EXPECT_TRUE(plain[7]);    // a\/b/x\.y
  EXPECT_TRUE(plain[9]);    // an empty top-level name leaves no element: "below_empty"
  EXPECT_FALSE(plain[15]);  // an empty name inside the path: anchored
  EXPECT_FALSE(plain[11]);  // under a name that is not UTF-8: anchored
  EXPECT_TRUE(plain[13]);   // under valid UTF-8
}

TEST(PlainFramePaths, RandomTreesAgreeWithFrameCheckPath) {
  std::mt19937 random(21);
  const std::vector<std::string> words = {"a", "ab", "b", "ba", "abc", "c", "a.b", "x", ""};
  for (int round = 0; round < 200; ++round) {
    capture c;
    const std::size_t count = 1 + random() % 40;
    for (std::size_t f = 0; f < count; ++f) {
      const std::size_t parent =
          f == 0 || random() % 4 == 0 ? context_frame::no_parent : random() % f;
      c.frames.push_back({words[random() % words.size()], parent});
    }
    SCOPED_TRACE(round);
    expect_agrees(c);
  }
}

// A 3,000-deep chain (the call stack that took `aorta view` a minute): every frame is named by its
// plain path, and the answer comes without a resolve per frame (the test's timeout, not a timer).
TEST(PlainFramePaths, DeepChainIsLinear) {
  capture c;
  for (std::size_t f = 0; f < 3000; ++f)
    c.frames.push_back({"f" + std::to_string(f), f == 0 ? context_frame::no_parent : f - 1});
  const std::vector<bool> plain = aorta::frames_selected_by_plain_path(c);
  // The full chain is deeper than any other frame's, so the deepest frame's plain path is its own.
  EXPECT_TRUE(plain[2999]);
  for (std::size_t f = 0; f < 20; ++f)
    EXPECT_EQ(plain[f], !aorta::frame_check_path(c, f).starts_with("/^")) << f;
}

}  // namespace
