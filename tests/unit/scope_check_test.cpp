// Scope paths (aorta/scope_path.hpp) and the under(...) forms of the check grammar.
#include "aorta/check.hpp"
#include "aorta/error.hpp"
#include "aorta/scope_path.hpp"

#include <gtest/gtest.h>

#include <cstddef>
#include <string>
#include <vector>

namespace {

using aorta::capture;
using aorta::context_frame;

// ROOT -> model.py:forward -> {prefill, decode -> prefill_tail}; and a top-level decode.
capture tree() {
  capture c;
  c.collector = "proton";
  c.frames = {{"model.py:forward", context_frame::no_parent},
              {"prefill", 0},
              {"decode", 0},
              {"prefill_tail", 2},
              {"decode", context_frame::no_parent},
              {"a/b", context_frame::no_parent}};
  const auto put = [&](std::size_t frame, const char* name, std::uint64_t n, double ns) {
    aorta::placed_kernel p;
    p.frame = frame;
    p.kernel = {name, n, ns};
    c.placements.push_back(p);
    c.kernels.push_back(p.kernel);
  };
  put(1, "gemm_big", 10, 26e6);
  put(3, "gemm_small", 5, 1e4);
  put(4, "gemm_small", 7, 2e4);
  put(context_frame::no_parent, "copy", 3, 1e3);
  return c;
}

std::vector<std::size_t> resolve(const char* path) {
  return aorta::scope_path::parse(path).resolve(tree());
}

TEST(ScopePath, ElementsMatchConsecutiveFramesFromAnyDepthUnlessAnchored) {
  EXPECT_EQ(resolve("forward/prefill"), std::vector<std::size_t>{1});
  EXPECT_EQ(resolve("^decode$"), (std::vector<std::size_t>{2, 4}));
  EXPECT_EQ(resolve("/^decode$"), std::vector<std::size_t>{4});
  EXPECT_EQ(resolve("forward/decode"), std::vector<std::size_t>{2});
  EXPECT_EQ(resolve("a\\/b"), std::vector<std::size_t>{5});
  EXPECT_TRUE(resolve("nothing").empty());
}

TEST(ScopePath, BadPathsSayWhy) {
  EXPECT_THROW((void)aorta::scope_path::parse("a//b"), std::invalid_argument);
  EXPECT_THROW((void)aorta::scope_path::parse("a/("), std::invalid_argument);
}

TEST(ScopePath, CheckPathIsPlainWhenUniqueElseAnchored) {
  const capture c = tree();
  EXPECT_EQ(aorta::frame_check_path(c, 1), "model\\.py:forward/prefill");
  // "decode" alone matches frames 2 and 4: the anchored chain selects the top-level one.
  EXPECT_EQ(aorta::frame_check_path(c, 4), "/^decode$");
  EXPECT_EQ(aorta::frame_check_path(c, 5), "a\\/b");
  for (std::size_t id = 0; id < c.frames.size(); ++id)
    EXPECT_EQ(aorta::scope_path::parse(aorta::frame_check_path(c, id)).resolve(c),
              std::vector<std::size_t>{id});
}

// The display path joins the names top-down with '/'; empty names below the deepest named frame
// add nothing, while an empty name above one keeps its separator.
TEST(ScopePath, DisplayPathKeepsEmptyNamesOnlyAboveANamedFrame) {
  capture c;
  c.frames = {{"a", context_frame::no_parent}, {"", 0}, {"b", 1}, {"", 2},
              {"", context_frame::no_parent},  {"c", 4}};
  EXPECT_EQ(aorta::frame_display_path(c, 0), "a");
  EXPECT_EQ(aorta::frame_display_path(c, 1), "a");
  EXPECT_EQ(aorta::frame_display_path(c, 2), "a//b");
  EXPECT_EQ(aorta::frame_display_path(c, 3), "a//b");
  EXPECT_EQ(aorta::frame_display_path(c, 4), "");
  EXPECT_EQ(aorta::frame_display_path(c, 5), "/c");
}

aorta::check_result run(const char* text) {
  return aorta::evaluate_check(aorta::check_expression::parse(text), {tree()}, {});
}

TEST(ScopeCheck, SumsTheSubtreeOnly) {
  EXPECT_EQ(run("count(under(forward/decode)) == 5").actual, "5");
  EXPECT_EQ(run("count(under(forward)) == 15").actual, "15");
  EXPECT_EQ(run("count(under(forward), small) == 5").actual, "5");
  EXPECT_TRUE(run("time_ms(under(/^decode$)) / time_ms(under(prefill$)) < 0.01").passed);
  EXPECT_TRUE(run("top_kernel(under(/decode)) ~ ^gemm_small$").passed);
  EXPECT_FALSE(run("top_kernel(under(forward)) ~ small").passed);
}

// A kernel regex that matches nothing under the frame: count() reads 0, time_ms() is not
// measured and names the kernels the subtree holds (issue 39, item 1); `?` reads it as 0.
TEST(ScopeCheck, NoMatchingKernelUnderAFrameFailsATime) {
  EXPECT_TRUE(run("count(under(forward), gemm_smal_) == 0").passed);
  const aorta::check_result time = run("time_ms(under(forward), gemm_smal_) < 1");
  EXPECT_FALSE(time.passed);
  EXPECT_EQ(time.actual, "unknown");
  EXPECT_NE(time.message.find("was not measured; did you mean: gemm_small"), std::string::npos)
      << time.message;
  EXPECT_TRUE(run("time_ms(under(forward), gemm_smal_)? < 1").passed);
}

TEST(ScopeCheck, AmbiguousAndMissingPathsListTheFrames) {
  const aorta::check_result ambiguous = run("count(under(decode)) == 1");
  EXPECT_FALSE(ambiguous.passed);
  EXPECT_NE(
      ambiguous.message.find(
          "under(decode) is ambiguous: it matches 2 frames: model\\.py:forward/decode, /^decode$"),
      std::string::npos)
      << ambiguous.message;
  const aorta::check_result missing = run("time_ms(under(warmup)) == 0");
  EXPECT_FALSE(missing.passed);
  EXPECT_NE(missing.message.find("no frame matches under(warmup)"), std::string::npos)
      << missing.message;
}

// A chain of `depth` frames f0/f1/... with `bottom` frames named zz below it, and one kernel at
// the bottom: the shape of a deep call stack a check may point into.
capture deep_chain(std::size_t depth, std::size_t bottom) {
  capture c;
  c.collector = "proton";
  for (std::size_t i = 0; i < depth + bottom; ++i)
    c.frames.push_back({i < depth ? "f" + std::to_string(i) : std::string("zz"),
                        i == 0 ? context_frame::no_parent : i - 1});
  aorta::placed_kernel p;
  p.frame = c.frames.size() - 1;
  p.kernel = {"k", 1, 5e3};
  c.placements.push_back(p);
  c.kernels.push_back(p.kernel);
  return c;
}

// Frames deep in a call stack are named by their top and bottom levels: every level written out
// made one message megabytes (ten frames 200,000 levels down: 16 MB, 38 s, 688 MB of regexes).
TEST(ScopeCheck, DeepFramesInMessagesAreShortened) {
  const std::vector<capture> deep{deep_chain(5000, 10)};
  const auto check = [&](const char* text) {
    return aorta::evaluate_check(aorta::check_expression::parse(text), deep, {});
  };
  const aorta::check_result ambiguous = check("count(under(zz)) == 1");
  EXPECT_FALSE(ambiguous.passed);
  EXPECT_LT(ambiguous.message.size(), 2000U) << ambiguous.message.substr(0, 2000);
  EXPECT_NE(
      ambiguous.message.find("it matches 10 frames: f0/f1/f2/...(4995 levels).../f4998/f4999/zz, "
                             "f0/f1/f2/...(4996 levels).../f4999/zz/zz, "),
      std::string::npos)
      << ambiguous.message.substr(0, 2000);
  EXPECT_NE(ambiguous.message.find("(the first lies 5001 levels deep, too deep to write out here)"),
            std::string::npos)
      << ambiguous.message.substr(0, 2000);
  const aorta::check_result none = check("count(under(f4999/zz), other) == 1");
  EXPECT_FALSE(none.passed);
  EXPECT_NE(none.message.find("no kernel under f0/f1/f2/...(4995 levels).../f4998/f4999/zz "
                              "matches 'other'"),
            std::string::npos)
      << none.message.substr(0, 2000);
  // A shallow frame is still written out in full, as a check writes it.
  const std::vector<capture> shallow{deep_chain(3, 2)};
  const aorta::check_result two =
      aorta::evaluate_check(aorta::check_expression::parse("count(under(zz)) == 1"), shallow, {});
  EXPECT_NE(two.message.find("it matches 2 frames: f0/f1/f2/zz, f0/f1/f2/zz/zz; write more of the "
                             "path (or anchor it with a leading '/') so it selects one, e.g. "
                             "under(f0/f1/f2/zz)"),
            std::string::npos)
      << two.message;
}

TEST(ScopeCheck, GrammarErrors) {
  EXPECT_THROW((void)aorta::check_expression::parse("cycles(under(x)) > 1"), aorta::usage_error);
  EXPECT_THROW((void)aorta::check_expression::parse("count(under()) > 1"), aorta::usage_error);
  EXPECT_THROW((void)aorta::check_expression::parse("count(under(x) y) > 1"), aorta::usage_error);
  EXPECT_THROW((void)aorta::check_expression::parse("count(under(x),) > 1"), aorta::usage_error);
  EXPECT_THROW((void)aorta::check_expression::parse("top_kernel(x) ~ y"), aorta::usage_error);
  EXPECT_THROW((void)aorta::check_expression::parse("count(under(a//b)) > 1"), aorta::usage_error);
  // Unscoped forms are unchanged.
  EXPECT_FALSE(aorta::check_expression::parse("count(under) > 1").scope().has_value());
}

}  // namespace
