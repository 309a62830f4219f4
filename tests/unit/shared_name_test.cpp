// kernel_stat::name is a shared_name: a name made from text owns a copy, copies share it, and a
// reader's interned names are views of one block that lives as long as any name of it. Under the
// asan preset a view that outlived its block fails here as a use after free.
#include "aorta/capture.hpp"
#include "aorta/shared_name.hpp"
#include "captures/frame_tree.hpp"
#include "captures/name_table.hpp"

#include <gtest/gtest.h>

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace {

using aorta::shared_name;

TEST(SharedName, MadeFromTextOwnsACopyAndCopiesShareIt) {
  std::string text = "sgemm_tiled_128x128";
  const shared_name name(text);
  text.assign(text.size(), 'x');
  EXPECT_EQ(name, "sgemm_tiled_128x128");
  const shared_name copy = name;  // NOLINT(performance-unnecessary-copy-initialization)
  EXPECT_EQ(copy.data(), name.data());
  shared_name moved = copy;
  const shared_name taken = std::move(moved);
  EXPECT_EQ(taken.data(), name.data());
  EXPECT_TRUE(shared_name().empty());
  EXPECT_EQ(shared_name(""), shared_name());
  EXPECT_EQ(shared_name().view(), "");
}

TEST(SharedName, ComparesFormatsAndConvertsAsText) {
  const shared_name a("alpha");
  const shared_name b("beta");
  EXPECT_LT(a, b);
  EXPECT_GT(b, a);
  EXPECT_EQ(a, std::string("alpha"));
  EXPECT_EQ(std::string("alpha"), a);
  EXPECT_NE(a, "alph");
  EXPECT_EQ(fmt::format("[{:>7}]", a), "[  alpha]");
  std::ostringstream out;
  out << b;
  EXPECT_EQ(out.str(), "beta");
  const std::string copied = a;  // the conversion code written for a std::string name relies on
  EXPECT_EQ(copied, "alpha");
  std::map<std::string, int, std::less<>> by_name{{"alpha", 1}};
  EXPECT_EQ(by_name.find(a.view())->second, 1);
  // Bytes are compared, not C strings: an embedded NUL is part of the name.
  EXPECT_NE(shared_name(std::string_view("a\0b", 3)), shared_name("a"));
  EXPECT_EQ(shared_name(std::string_view("a\0b", 3)).size(), 3U);
}

// The table's names go out as views of one block, in id order, and the block outlives the table
// and every name but the last one held.
TEST(SharedName, TableNamesShareOneBlockThatOutlivesTheTable) {
  std::vector<shared_name> names;
  {
    aorta::detail::name_table table;
    for (int i = 0; i < 10'000; ++i) table.intern("kernel_" + std::to_string(i));
    table.intern("");
    table.share([&names](std::uint32_t id, shared_name name) {
      EXPECT_EQ(id, names.size());
      names.push_back(std::move(name));
    });
    EXPECT_EQ(table.size(), 0U);
  }
  ASSERT_EQ(names.size(), 10'001U);
  const char* first = names.front().data();
  for (std::size_t i = 0; i + 1 < names.size(); ++i) {
    EXPECT_EQ(names[i], "kernel_" + std::to_string(i));
    // Back to back in one block: each name starts where the one before it ends.
    if (i > 0) {
      EXPECT_EQ(names[i].data(), names[i - 1].data() + names[i - 1].size());
    }
  }
  EXPECT_TRUE(names.back().empty());
  const shared_name last = names[9'999];
  names.clear();
  EXPECT_EQ(last, "kernel_9999");
  EXPECT_GT(last.data(), first);
}

TEST(SharedName, AnEmptyTableSharesNoBlock) {
  aorta::detail::name_table table;
  int calls = 0;
  table.share([&calls](std::uint32_t, const shared_name&) { ++calls; });
  EXPECT_EQ(calls, 0);
  table.intern("");
  table.share([&calls](std::uint32_t, const shared_name& name) {
    ++calls;
    EXPECT_TRUE(name.empty());
  });
  EXPECT_EQ(calls, 1);
}

// A frame tree's kernels and their placements name the kernels from one block: after
// take_kernels and finish, and with the builder gone, every name reads back.
TEST(SharedName, KernelsAndPlacementsOfAFrameTreeShareTheirNames) {
  aorta::capture out;
  {
    aorta::detail::frame_tree_builder tree;
    const std::size_t gpu0 = tree.child(aorta::context_frame::no_parent, "gpu0");
    const std::size_t gpu1 = tree.child(aorta::context_frame::no_parent, "gpu1");
    tree.add_kernel(gpu0, "gemm", 2, 30.0);
    tree.add_kernel(gpu1, "gemm", 1, 15.0);
    tree.add_kernel(gpu1, "softmax", 4, 60.0);
    tree.take_kernels(out);
    tree.finish(out);
  }
  ASSERT_EQ(out.kernels.size(), 2U);
  EXPECT_EQ(out.kernels[0].name, "softmax");
  EXPECT_EQ(out.kernels[1].name, "gemm");
  EXPECT_EQ(out.kernels[1].total_ns, 45.0);
  ASSERT_EQ(out.placements.size(), 3U);
  std::vector<std::string> placed;
  for (const aorta::placed_kernel& p : out.placements) {
    placed.push_back(fmt::format("{}@{}", p.kernel.name, out.frames[p.frame].name));
    const auto same =
        std::find_if(out.kernels.begin(), out.kernels.end(),
                     [&](const aorta::kernel_stat& k) { return k.name == p.kernel.name; });
    ASSERT_NE(same, out.kernels.end());
    EXPECT_EQ(same->name.data(), p.kernel.name.data()) << "a placement copied its name";
  }
  std::sort(placed.begin(), placed.end());
  EXPECT_EQ(placed, (std::vector<std::string>{"gemm@gpu0", "gemm@gpu1", "softmax@gpu1"}));
}

}  // namespace
