#include "collectors/rocprof/rocprof_wrap.hpp"

#include "aorta/error.hpp"
#include "unit/wrap_test_support.hpp"

#include <gtest/gtest.h>

namespace aorta {
namespace {

using strings = std::vector<std::string>;

TEST(rocprof_wrap, default_options_name_csv_kernel_trace_stats_and_summary_file) {
  const strings expected{"/opt/rocm/bin/rocprofv3",
                         "-d",
                         "/t/rocprof",
                         "-o",
                         "aorta",
                         "--output-format",
                         "csv",
                         "--kernel-trace",
                         "--stats",
                         "-S",
                         "--summary-output-file",
                         "rocprof_summary",
                         "--"};
  EXPECT_EQ(rocprof_argv(rocprof_options{}, "/t/rocprof", "/opt/rocm/bin/rocprofv3"), expected);
}

TEST(rocprof_wrap, every_option_in_its_place_with_pmc_last) {
  rocprof_options options;
  options.trace = {"hip", "kernel", "hip_runtime", "memory_copy", "rccl", "marker", "scratch"};
  options.output_format = "json";
  options.stats = false;
  options.pmc = {"SQ_WAVES", "GRBM_COUNT"};
  options.kernel_include_regex = "^Gemm.*Kernel$";
  options.summary_units = "usec";
  const strings expected{"rocprofv3",
                         "-d",
                         "/out dir/rocprof",
                         "-o",
                         "aorta",
                         "--output-format",
                         "json",
                         "--hip-trace",
                         "--kernel-trace",
                         "--hip-runtime-trace",
                         "--memory-copy-trace",
                         "--rccl-trace",
                         "--marker-trace",
                         "--scratch-memory-trace",
                         "-S",
                         "--summary-output-file",
                         "rocprof_summary",
                         "-u",
                         "usec",
                         "--kernel-include-regex",
                         "^Gemm.*Kernel$",
                         "--pmc",
                         "SQ_WAVES",
                         "GRBM_COUNT",
                         "--"};
  EXPECT_EQ(rocprof_argv(options, "/out dir/rocprof", "rocprofv3"), expected);
}

TEST(rocprof_wrap, binary_from_path_is_given_as_full_path) {
  const test::scratch_dir dir;
  const auto tool = dir.write("bin/rocprofv3", "#!/bin/sh\n");
  const env_map env{{"PATH", "/nonexistent:" + (dir.path() / "bin").string()}};
  EXPECT_EQ(resolve_rocprof_binary(env), tool.string());
}

TEST(rocprof_wrap, non_executable_file_on_path_is_passed_over) {
  const test::scratch_dir dir;
  dir.write("first/rocprofv3", "data\n", 0644);
  const auto tool = dir.write("second/rocprofv3", "#!/bin/sh\n");
  const env_map env{
      {"PATH", (dir.path() / "first").string() + ":" + (dir.path() / "second").string()}};
  EXPECT_EQ(resolve_rocprof_binary(env), tool.string());
}

TEST(rocprof_wrap, rocprof_bin_path_wins_over_path_and_expands_home) {
  const test::scratch_dir dir;
  dir.write("bin/rocprofv3", "#!/bin/sh\n");
  const auto mine = dir.write("home/tools/my-rocprof", "#!/bin/sh\n");
  const env_map env{{"PATH", (dir.path() / "bin").string()},
                    {"HOME", (dir.path() / "home").string()},
                    {"ROCPROF_BIN", "~/tools/my-rocprof"}};
  EXPECT_EQ(resolve_rocprof_binary(env), mine.string());
}

TEST(rocprof_wrap, rocprof_bin_bare_name_is_looked_up_on_path) {
  const test::scratch_dir dir;
  const auto tool = dir.write("bin/rocprofv3-nightly", "#!/bin/sh\n");
  const env_map env{{"PATH", (dir.path() / "bin").string()}, {"ROCPROF_BIN", "rocprofv3-nightly"}};
  EXPECT_EQ(resolve_rocprof_binary(env), tool.string());
}

TEST(rocprof_wrap, rocprof_bin_that_is_not_executable_skips_naming_the_variable) {
  const test::scratch_dir dir;
  const auto plain = dir.write("rocprofv3", "data\n", 0644);
  const env_map env{{"PATH", dir.path().string()}, {"ROCPROF_BIN", plain.string()}};
  try {
    (void)resolve_rocprof_binary(env);
    FAIL() << "expected skip_error";
  } catch (const skip_error& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find("$ROCPROF_BIN=" + plain.string() + " is not an executable file"),
              std::string::npos)
        << message;
    EXPECT_EQ(e.code(), exit_code::skipped);
  }
}

TEST(rocprof_wrap, rocprof_bin_bare_name_missing_from_path_skips) {
  const test::scratch_dir dir;
  const env_map env{{"PATH", dir.path().string()}, {"ROCPROF_BIN", "rocprofv3-missing"}};
  EXPECT_THROW((void)resolve_rocprof_binary(env), skip_error);
}

TEST(rocprof_wrap, missing_rocprofv3_skips_with_the_fix) {
  const test::scratch_dir dir;
  const env_map env{{"PATH", dir.path().string()}};
  try {
    (void)resolve_rocprof_binary(env);
    FAIL() << "expected skip_error";
  } catch (const skip_error& e) {
    EXPECT_STREQ(e.what(),
                 "rocprof: rocprofv3 was not found on $PATH; install ROCm's rocprofiler-sdk (it "
                 "ships rocprofv3), or set $ROCPROF_BIN to its full path");
  }
}

TEST(rocprof_wrap, empty_rocprof_bin_counts_as_unset) {
  const test::scratch_dir dir;
  const auto tool = dir.write("rocprofv3", "#!/bin/sh\n");
  const env_map env{{"PATH", dir.path().string()}, {"ROCPROF_BIN", ""}};
  EXPECT_EQ(resolve_rocprof_binary(env), tool.string());
}

}  // namespace
}  // namespace aorta
