// plan_launch and the registry: wrap order, per-collector output directories, the unchanged argv
// without attaching collectors. Links the option parsers (parse_*_options); every request here
// uses default options so only the registry's own behaviour is under test.
#include "aorta/collector.hpp"

#include "aorta/error.hpp"
#include "unit/wrap_test_support.hpp"

#include <gtest/gtest.h>

namespace aorta {
namespace {

using strings = std::vector<std::string>;

collector_request request(std::string name) {
  return collector_request{std::move(name), {}, {}};
}

class registry_wrap : public ::testing::Test {
protected:
  test::scratch_dir m_dir;
  std::filesystem::path m_rocprof = m_dir.write("bin/rocprofv3", "#!/bin/sh\n");
  std::filesystem::path m_ncu = m_dir.write("bin/ncu", "#!/bin/sh\n");
  std::filesystem::path m_valgrind = m_dir.write("bin/valgrind", "#!/bin/sh\n");
  std::filesystem::path m_python = m_dir.write("bin/python3", "#!/bin/sh\n");
  env_map m_env{{"PATH", (m_dir.path() / "bin").string()}};
};

TEST_F(registry_wrap, all_four_nest_outermost_first_whatever_the_request_order) {
  const std::vector<collector_request> requested{request("proton"), request("callgrind"),
                                                 request("rocprof"), request("ncu")};
  const strings expected{m_rocprof.string(),
                         "-d",
                         "/trial/rocprof",
                         "-o",
                         "aorta",
                         "--output-format",
                         "csv",
                         "--kernel-trace",
                         "--stats",
                         "-S",
                         "--summary-output-file",
                         "rocprof_summary",
                         "--",
                         m_ncu.string(),
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
                         "/trial/ncu/ncu.csv",
                         m_valgrind.string(),
                         "--tool=callgrind",
                         "--callgrind-out-file=/trial/callgrind/callgrind.out.%p",
                         "--cache-sim=no",
                         "-q",
                         "python3",
                         "-m",
                         "triton.profiler.proton",
                         "-n",
                         "/trial/proton/proton",
                         "--context",
                         "shadow",
                         "--data",
                         "tree",
                         "train.py",
                         "--steps",
                         "2"};
  const launch_plan plan =
      plan_launch(requested, {"python3", "train.py", "--steps", "2"}, "/trial", plan_context{m_env});
  EXPECT_EQ(plan.argv, expected);
  EXPECT_TRUE(plan.env_set.empty());
  EXPECT_TRUE(plan.env_unset.empty());
}

TEST_F(registry_wrap, no_attaching_collector_leaves_the_argv_byte_for_byte) {
  const strings command{"./bench", "--n", "3", " spaced arg ", ""};
  for (const auto& requested :
       {std::vector<collector_request>{},
        std::vector<collector_request>{request("numerics"), request("amd_log"),
                                       request("layer_numerics")}}) {
    const launch_plan plan = plan_launch(requested, command, "/trial", plan_context{m_env});
    EXPECT_EQ(plan.argv, command);
    EXPECT_TRUE(plan.env_set.empty());
    EXPECT_TRUE(plan.env_unset.empty());
    EXPECT_TRUE(plan.warnings.empty());
  }
}

TEST_F(registry_wrap, callgrind_alone_wraps_a_native_binary) {
  const strings expected{m_valgrind.string(), "--tool=callgrind",
                         "--callgrind-out-file=/trial/callgrind/callgrind.out.%p", "--cache-sim=no",
                         "-q", "./bench"};
  EXPECT_EQ(plan_launch({request("callgrind")}, {"./bench"}, "/trial", plan_context{m_env}).argv, expected);
}

TEST_F(registry_wrap, missing_profiler_is_a_skip_at_plan_time_and_an_unavailable_reason) {
  const env_map bare{{"PATH", (m_dir.path() / "nothing").string()}};
  EXPECT_THROW((void)plan_launch({request("rocprof")}, {"./app"}, "/trial", plan_context{bare}), skip_error);
  const collector_base* rocprof = find_collector("rocprof");
  ASSERT_NE(rocprof, nullptr);
  const auto reason = rocprof->unavailable_reason(*rocprof->parse_options({}), bare, {});
  ASSERT_TRUE(reason.has_value());
  EXPECT_NE(reason->find("ROCPROF_BIN"), std::string::npos) << *reason;
  EXPECT_FALSE(rocprof->unavailable_reason(*rocprof->parse_options({}), m_env, {}).has_value());
}

TEST_F(registry_wrap, unknown_name_is_refused) {
  EXPECT_THROW((void)plan_launch({request("nsys")}, {"./app"}, "/trial", plan_context{m_env}), recipe_error);
}

TEST(registry, finds_every_name_and_nothing_else) {
  for (const char* name :
       {"rocprof", "ncu", "callgrind", "proton", "numerics", "layer_numerics", "amd_log"}) {
    const collector_base* collector = find_collector(name);
    ASSERT_NE(collector, nullptr) << name;
    EXPECT_EQ(collector->name(), name);
  }
  EXPECT_EQ(find_collector("nsys"), nullptr);
  EXPECT_EQ(find_collector(""), nullptr);
}

TEST(registry, attaching_and_gpu_flags) {
  EXPECT_TRUE(find_collector("rocprof")->attaches());
  EXPECT_TRUE(find_collector("proton")->profiles_gpu());
  EXPECT_TRUE(find_collector("callgrind")->attaches());
  EXPECT_FALSE(find_collector("callgrind")->profiles_gpu());
  EXPECT_FALSE(find_collector("numerics")->attaches());
  EXPECT_FALSE(find_collector("amd_log")->unavailable_reason(
      *find_collector("amd_log")->parse_options({}), {}, {}).has_value());
}

}  // namespace
}  // namespace aorta
