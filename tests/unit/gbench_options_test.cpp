// The gbench collector's options and the flags it appends to the benchmark's argv.
#include "aorta/collector.hpp"
#include "aorta/error.hpp"
#include "collectors/gbench/gbench_wrap.hpp"

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
    (void)aorta::parse_gbench_options(options);
  } catch (const aorta::option_error& e) {
    return e.what();
  }
  return "";
}

TEST(gbench_options, flags_are_appended_with_repetitions_when_asked) {
  const std::vector<std::string> plain = aorta::gbench_flags({}, "/out/gbench");
  EXPECT_EQ(plain, (std::vector<std::string>{"--benchmark_out=/out/gbench/gbench.json",
                                             "--benchmark_out_format=json"}));
  const auto repeated =
      aorta::gbench_flags(aorta::parse_gbench_options(options_with("repetitions", " 9 ")), "/o");
  ASSERT_EQ(repeated.size(), 3u);
  EXPECT_EQ(repeated[2], "--benchmark_repetitions=9");
}

TEST(gbench_options, bad_values_and_unknown_keys_are_refused) {
  for (const char* bad : {"0", "-1", "3.5", "many", "", "1001"}) {
    EXPECT_NE(refusal(options_with("repetitions", bad))
                  .find("gbench.repetitions: expected a "
                        "whole number from 1 to 1000"),
              std::string::npos)
        << bad;
  }
  EXPECT_EQ(refusal(options_with("repetitions", "1000")), "");
  EXPECT_NE(refusal(options_with("repetition", "3")).find("Did you mean 'repetitions'"),
            std::string::npos);
}

TEST(gbench_options, the_collector_runs_on_the_cpu_with_nothing_to_install) {
  const auto* gbench = aorta::find_collector("gbench");
  ASSERT_NE(gbench, nullptr);
  EXPECT_FALSE(gbench->profiles_gpu());
  const auto config = gbench->parse_options({});
  EXPECT_EQ(gbench->unavailable_reason(*config, {}, {}), std::nullopt);
  aorta::launch_plan inner;
  inner.argv = {"./bench", "--benchmark_filter=Sort"};
  const auto wrapped = gbench->wrap(inner, *config, "/t/gbench", {});
  EXPECT_EQ(wrapped.argv.front(), "./bench");
  EXPECT_EQ(wrapped.argv.at(2), "--benchmark_out=/t/gbench/gbench.json");
}

}  // namespace
