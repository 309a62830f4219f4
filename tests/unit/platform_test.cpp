// Which platforms a recipe's collectors capture on, and the --platforms words. The lane rule that
// uses them (not applicable -> skipped even under --require-profiler) is tested end to end in
// tests/cli/sweep_run.cmake (run.lane_*).
#include "aorta/collector.hpp"
#include "aorta/error.hpp"
#include "aorta/platform.hpp"

#include <gtest/gtest.h>

namespace aorta {
namespace {

collector_request request(std::string name, option_map options = {}) {
  return collector_request{std::move(name), std::move(options), {}};
}

option_map backend(const std::string& value) { return {{"backend", option_value{value, {}}}}; }

TEST(collector_platforms, each_profiler_names_its_vendor) {
  EXPECT_EQ(collector_platforms({request("rocprof")}), platform_set{platform::amd});
  EXPECT_EQ(collector_platforms({request("ncu")}), platform_set{platform::nvidia});
  EXPECT_EQ(collector_platforms({request("callgrind")}), platform_set{platform::cpu});
}

TEST(collector_platforms, proton_follows_its_backend) {
  const platform_set both{platform::nvidia, platform::amd};
  EXPECT_EQ(collector_platforms({request("proton")}), both);
  EXPECT_EQ(collector_platforms({request("proton", backend("auto"))}), both);
  EXPECT_EQ(collector_platforms({request("proton", backend("instrumentation"))}), both);
  EXPECT_EQ(collector_platforms({request("proton", backend("cupti"))}),
            platform_set{platform::nvidia});
  EXPECT_EQ(collector_platforms({request("proton", backend("roctracer"))}),
            platform_set{platform::amd});
  EXPECT_EQ(collector_platforms({request("proton", backend("ROCPROFILER"))}),
            platform_set{platform::amd});
}

TEST(collector_platforms, several_collectors_must_all_capture_there) {
  EXPECT_EQ(collector_platforms({request("ncu"), request("proton")}),
            platform_set{platform::nvidia});
  EXPECT_TRUE(collector_platforms({request("ncu"), request("rocprof")}).empty());
  EXPECT_TRUE(collector_platforms({request("callgrind"), request("proton")}).empty());
}

TEST(collector_platforms, validated_only_and_no_collectors_run_anywhere) {
  EXPECT_EQ(collector_platforms({}), platform_set::all());
  EXPECT_EQ(collector_platforms({request("numerics")}), platform_set::all());
  EXPECT_EQ(collector_platforms({request("numerics"), request("ncu")}),
            platform_set{platform::nvidia});
}

TEST(collector_platforms, an_unknown_collector_captures_nowhere) {
  EXPECT_TRUE(collector_platforms({request("nsys")}).empty());
}

TEST(parse_platforms, lists_all_and_case) {
  EXPECT_EQ(parse_platforms("nvidia"), platform_set{platform::nvidia});
  EXPECT_EQ(parse_platforms(" CPU , nvidia"), (platform_set{platform::cpu, platform::nvidia}));
  EXPECT_EQ(parse_platforms("all"), platform_set::all());
  EXPECT_EQ(parse_platforms("amd,amd"), platform_set{platform::amd});
}

TEST(parse_platforms, a_bad_word_names_itself_and_the_choices) {
  for (const char* text : {"gpu", "nvidia,", "", "nvidia;amd"}) {
    try {
      (void)parse_platforms(text);
      FAIL() << "accepted '" << text << "'";
    } catch (const usage_error& e) {
      EXPECT_NE(std::string(e.what()).find("cpu, nvidia, amd, or all"), std::string::npos)
          << e.what();
    }
  }
}

TEST(platform_set, prints_in_a_fixed_order) {
  EXPECT_EQ(to_string(platform_set{platform::amd, platform::cpu}), "cpu, amd");
  EXPECT_EQ(to_string(platform_set{}), "none");
}

}  // namespace
}  // namespace aorta
