// The place of the kernel that leads a cell's change (cells/confound_paths.hpp), on the real H200
// scoped capture (tests/fixtures/h200-scoped): the prefill GEMM sits under the `prefill` scope,
// the decode GEMMs under `decode`, the f64 GEMM at the root.
#include "cells/confound_paths.hpp"
#include "diff/diff_capture_reading.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <string>

namespace {

using aorta::detail::kernel_place;
using aorta::detail::place_of_kernel;
using aorta::detail::sentence_with_place;

const std::string prefill_gemm =
    "sm80_xmma_gemm_f32f32_f32f32_f32_nn_n_tilesize256x128x8_stage3_warpsize4x2x1_ffma_aligna4_"
    "alignc4_execute_kernel__5x_cublas";

aorta::capture scoped_tree() {
  const auto file = std::filesystem::path(AORTA_FIXTURES_DIR) / "h200-scoped/tree/proton.hatchet";
  return aorta::detail::read_capture_as(file.string(), "proton");
}

TEST(CellsPlace, AScopedKernelIsNamedByItsScope) {
  const auto tree = scoped_tree();
  const auto place = place_of_kernel(tree, prefill_gemm);
  ASSERT_TRUE(place.has_value());
  EXPECT_EQ(place->path, "prefill");
  EXPECT_EQ(place->places, 1U);
  // At the root: no place to name; unknown: none either.
  EXPECT_FALSE(place_of_kernel(tree,
                               "sm90_xmma_gemm_f64f64_f64f64_f64_nn_n_tilesize128x64x16_"
                               "stage3_warpsize2x2x1_tensor16x8x8_execute_kernel__5x_cublas"));
  EXPECT_FALSE(place_of_kernel(tree, "no_such_kernel"));
}

TEST(CellsPlace, TheSentenceNamesThePlace) {
  const std::string sentence = "head is 9.5% slower [+9.1%, +10.6%] than base (total kernel time) "
                               "in gemm (+9.5% itself), 100% of the change, more work";
  EXPECT_EQ(sentence_with_place(sentence, "gemm", kernel_place{"main > step", 1}),
            "head is 9.5% slower [+9.1%, +10.6%] than base (total kernel time) in main > step > "
            "gemm (+9.5% itself), 100% of the change, more work");
  EXPECT_EQ(sentence_with_place(sentence, "gemm", kernel_place{"fwd", 2}),
            "head is 9.5% slower [+9.1%, +10.6%] than base (total kernel time) in fwd > gemm (its "
            "heaviest of 2 places) (+9.5% itself), 100% of the change, more work");
  EXPECT_EQ(sentence_with_place(sentence, "other", kernel_place{"fwd", 1}), sentence);
}

}  // namespace
