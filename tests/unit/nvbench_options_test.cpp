// The nvbench collector's options and the flags it appends to the benchmark's argv.
#include "aorta/collector.hpp"
#include "aorta/error.hpp"
#include "collectors/nvbench/nvbench_wrap.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace {

aorta::option_map options_with(const std::string& key, const std::string& text) {
  aorta::option_map options;
  options[key].text = text;
  return options;
}

std::string refusal(const aorta::option_map& options) {
  try {
    (void)aorta::parse_nvbench_options(options);
  } catch (const aorta::option_error& e) {
    return e.what();
  }
  return "";
}

TEST(nvbench_options, json_is_appended_with_each_option_asked_for) {
  EXPECT_EQ(aorta::nvbench_flags({}, "/out/nvbench"),
            (std::vector<std::string>{"--json", "/out/nvbench/nvbench.json"}));
  aorta::option_map all;
  all["devices"].text = " 0, 1 ";
  all["min_samples"].text = "20";
  all["min_time"].text = "0.25";
  all["timeout"].text = "30";
  EXPECT_EQ(aorta::nvbench_flags(aorta::parse_nvbench_options(all), "/o"),
            (std::vector<std::string>{"--json", "/o/nvbench.json", "--devices", "0,1",
                                      "--min-samples", "20", "--min-time", "0.25", "--timeout",
                                      "30"}));
  EXPECT_EQ(aorta::nvbench_flags(aorta::parse_nvbench_options(options_with("devices", "all")),
                                 "/o")
                .back(),
            "all");
}

TEST(nvbench_options, bad_values_and_unknown_keys_are_refused_naming_the_key) {
  for (const char* bad : {"0", "-1", "3.5", "many", "", "1000001"}) {
    EXPECT_NE(refusal(options_with("min_samples", bad))
                  .find("nvbench.min_samples: expected a whole number from 1 to 1000000"),
              std::string::npos)
        << bad;
  }
  for (const char* bad : {"0", "-1", "nan", "inf", "1e9", "soon", ""}) {
    EXPECT_NE(refusal(options_with("timeout", bad)).find("nvbench.timeout: expected seconds"),
              std::string::npos)
        << bad;
    EXPECT_NE(refusal(options_with("min_time", bad)).find("nvbench.min_time: expected seconds"),
              std::string::npos)
        << bad;
  }
  for (const char* bad : {"-1", "gpu0", "1024", ",", "0;1"}) {
    EXPECT_NE(refusal(options_with("devices", bad)).find("nvbench.devices:"), std::string::npos)
        << bad;
  }
  EXPECT_NE(refusal(options_with("min_sample", "3")).find("Did you mean 'min_samples'"),
            std::string::npos);
}

TEST(nvbench_options, sample_times_swaps_json_for_jsonbin_and_is_a_boolean) {
  EXPECT_FALSE(aorta::parse_nvbench_options({}).sample_times);
  for (const char* yes : {"true", "1", "yes", "ON"}) {
    const auto parsed = aorta::parse_nvbench_options(options_with("sample_times", yes));
    EXPECT_TRUE(parsed.sample_times) << yes;
    EXPECT_EQ(aorta::nvbench_flags(parsed, "/o"),
              (std::vector<std::string>{"--jsonbin", "/o/nvbench.json"}));
  }
  EXPECT_FALSE(aorta::parse_nvbench_options(options_with("sample_times", "off")).sample_times);
  for (const char* bad : {"sometimes", "", "true,false", "2"}) {
    EXPECT_NE(refusal(options_with("sample_times", bad))
                  .find("nvbench.sample_times: expected a boolean"),
              std::string::npos)
        << bad;
  }
  EXPECT_NE(refusal(options_with("sample_time", "true")).find("Did you mean 'sample_times'"),
            std::string::npos);
}

// The run's fingerprint names the per-sample time only when it is asked for, so baselines
// recorded before the option keep theirs.
TEST(nvbench_options, sample_times_is_in_the_fingerprint_only_when_on) {
  const auto* nvbench = aorta::find_collector("nvbench");
  ASSERT_NE(nvbench, nullptr);
  const aorta::env_map no_path{{"PATH", "/nonexistent"}};
  const auto off = nvbench->probe_versions(*nvbench->parse_options({}), {}, no_path);
  EXPECT_EQ(off.count("nvbench_time"), 0U);
  const auto on = nvbench->probe_versions(
      *nvbench->parse_options(options_with("sample_times", "true")), {}, no_path);
  ASSERT_EQ(on.count("nvbench_time"), 1U);
  EXPECT_EQ(on.at("nvbench_time"), "sample mean after the warm-up rule (--jsonbin)");
}

TEST(nvbench_options, the_collector_needs_an_nvidia_gpu_and_nothing_to_install) {
  const auto* nvbench = aorta::find_collector("nvbench");
  ASSERT_NE(nvbench, nullptr);
  EXPECT_TRUE(nvbench->profiles_gpu());
  const auto config = nvbench->parse_options({});
  EXPECT_EQ(nvbench->unavailable_reason(*config, {}, {}), std::nullopt);
  EXPECT_EQ(nvbench->platforms(*config), aorta::platform_set{aorta::platform::nvidia});
  aorta::launch_plan inner;
  inner.argv = {"./bench", "--benchmark", "gemm"};
  const auto wrapped = nvbench->wrap(inner, *config, "/t/nvbench", {});
  EXPECT_EQ(wrapped.argv, (std::vector<std::string>{"./bench", "--benchmark", "gemm", "--json",
                                                    "/t/nvbench/nvbench.json"}));
}

}  // namespace
