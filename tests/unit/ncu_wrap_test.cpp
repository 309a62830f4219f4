#include "collectors/ncu/ncu_wrap.hpp"

#include "aorta/error.hpp"
#include "unit/wrap_test_support.hpp"

#include <gtest/gtest.h>

namespace aorta {
namespace {

using strings = std::vector<std::string>;
using paths = std::vector<std::filesystem::path>;

TEST(ncu_wrap, default_options_write_the_details_page_in_base_units_to_the_log_file) {
  const strings expected{"ncu",
                         "--target-processes",
                         "all",
                         "--clock-control",
                         "none",
                         "--metrics",
                         "gpu__time_duration.sum",
                         "--csv",
                         "--page",
                         "details",
                         "--print-units",
                         "base",
                         "--log-file",
                         "/t/ncu/ncu.csv"};
  EXPECT_EQ(ncu_argv(ncu_options{}, "/t/ncu", "ncu"), expected);
}

TEST(ncu_wrap, every_option_in_its_place) {
  ncu_options options;
  options.metrics = {"gpu__time_duration.sum", "sm__throughput.avg.pct_of_peak_sustained_elapsed"};
  options.clock_control = "base";
  options.kernel_name = "sgemm.*";
  options.launch_skip = "2";
  options.launch_count = "10";
  const strings expected{"/usr/local/cuda/bin/ncu",
                         "--target-processes",
                         "all",
                         "--clock-control",
                         "base",
                         "--metrics",
                         "gpu__time_duration.sum,sm__throughput.avg.pct_of_peak_sustained_elapsed",
                         "--csv",
                         "--page",
                         "details",
                         "--print-units",
                         "base",
                         "--log-file",
                         "/t/ncu/ncu.csv",
                         "-k",
                         "regex:sgemm.*",
                         "--launch-skip",
                         "2",
                         "--launch-count",
                         "10"};
  EXPECT_EQ(ncu_argv(options, "/t/ncu", "/usr/local/cuda/bin/ncu"), expected);
}

TEST(ncu_wrap, standard_locations_list_cuda_first_then_nsight_versions_newest_first) {
  const test::scratch_dir root;
  const auto cuda = root.write("usr/local/cuda/bin/ncu", "#!/bin/sh\n");
  const auto v9 = root.write("opt/nvidia/nsight-compute/2024.9.1/ncu", "#!/bin/sh\n");
  const auto v10 = root.write("opt/nvidia/nsight-compute/2024.10.0/ncu", "#!/bin/sh\n");
  root.write("opt/nvidia/nsight-compute/2025.1.0/ncu", "not executable\n", 0644);
  EXPECT_EQ(ncu_standard_locations(root.path()), (paths{cuda, v10, v9}));
}

TEST(ncu_wrap, standard_locations_of_an_empty_root_are_none) {
  const test::scratch_dir root;
  EXPECT_TRUE(ncu_standard_locations(root.path()).empty());
}

TEST(ncu_wrap, ncu_on_path_wins_over_standard_locations) {
  const test::scratch_dir dir;
  const auto on_path = dir.write("bin/ncu", "#!/bin/sh\n");
  const auto standard = dir.write("cuda/ncu", "#!/bin/sh\n");
  const env_map env{{"PATH", (dir.path() / "bin").string()}};
  EXPECT_EQ(resolve_ncu_binary(env, {standard}), on_path.string());
}

TEST(ncu_wrap, standard_location_is_used_when_path_has_no_ncu) {
  const test::scratch_dir dir;
  const auto standard = dir.write("cuda/ncu", "#!/bin/sh\n");
  const env_map env{{"PATH", (dir.path() / "bin").string()}};
  EXPECT_EQ(resolve_ncu_binary(env, {dir.path() / "absent/ncu", standard}), standard.string());
}

TEST(ncu_wrap, ncu_bin_wins_over_everything) {
  const test::scratch_dir dir;
  dir.write("bin/ncu", "#!/bin/sh\n");
  const auto chosen = dir.write("mine/ncu-2025", "#!/bin/sh\n");
  const auto standard = dir.write("cuda/ncu", "#!/bin/sh\n");
  const env_map env{{"PATH", (dir.path() / "bin").string()}, {"NCU_BIN", chosen.string()}};
  EXPECT_EQ(resolve_ncu_binary(env, {standard}), chosen.string());
}

TEST(ncu_wrap, broken_ncu_bin_skips_even_with_a_standard_location) {
  const test::scratch_dir dir;
  const auto standard = dir.write("cuda/ncu", "#!/bin/sh\n");
  const env_map env{{"PATH", dir.path().string()}, {"NCU_BIN", (dir.path() / "nope/ncu").string()}};
  EXPECT_THROW((void)resolve_ncu_binary(env, {standard}), skip_error);
}

TEST(ncu_wrap, nothing_found_skips_naming_ncu_bin) {
  const test::scratch_dir dir;
  const env_map env{{"PATH", dir.path().string()}};
  try {
    (void)resolve_ncu_binary(env, {});
    FAIL() << "expected skip_error";
  } catch (const skip_error& e) {
    EXPECT_STREQ(e.what(),
                 "ncu: ncu was not found on $PATH; install NVIDIA Nsight Compute (the CUDA "
                 "toolkit ships it as /usr/local/cuda/bin/ncu), or set $NCU_BIN to its full path");
  }
}

}  // namespace
}  // namespace aorta
