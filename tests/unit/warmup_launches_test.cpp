// The warm-up rule for per-launch times (captures/warmup_launches.hpp).
#include "captures/warmup_launches.hpp"

#include <gtest/gtest.h>

namespace {

using aorta::detail::warmup_launches;

TEST(WarmupLaunches, DropsTheSlowFirstLaunchesOfARealProcess) {
  // The first process of benchmarks/gpu-2026-12-06/gemm-modes.json (us, H100, K=2240): 8.8x,
  // 5.9x, 1.6x, 1.3x the steady ~41.6 us, then steady from the 5th launch on.
  const std::vector<double> times{364.6, 245.2, 66.8, 53.3, 48.0, 45.8, 44.8, 42.2, 43.3, 41.4,
                                  41.9,  42.0,  43.3, 43.0, 40.7, 41.3, 39.9, 40.7, 41.1, 50.6};
  EXPECT_EQ(warmup_launches(times), 4U);
}

TEST(WarmupLaunches, SteadyLaunchesAndShortSeriesLoseNothing) {
  EXPECT_EQ(warmup_launches({30, 31, 29, 30, 30, 31, 30, 29, 30}), 0U);
  EXPECT_EQ(warmup_launches({300, 200, 30, 30, 30, 30, 30}), 0U) << "7 launches: too few";
  // One slow launch in the middle ends no run that had started: only the leading ones count.
  EXPECT_EQ(warmup_launches({300, 30, 30, 30, 90, 30, 30, 30, 30}), 1U);
}

TEST(WarmupLaunches, NeverMoreThanHalf) {
  EXPECT_EQ(warmup_launches({90, 90, 90, 90, 90, 90, 30, 30, 30, 30}), 5U);
}

}  // namespace
