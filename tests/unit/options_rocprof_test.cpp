#include "collectors/rocprof/rocprof_options.hpp"

#include "option_test_support.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace {

using aorta::option_error;
using aorta::parse_rocprof_options;
using aorta::testing_support::make_options;
using aorta::testing_support::thrown;
using ::testing::HasSubstr;
using strings = std::vector<std::string>;

std::optional<option_error>
rocprof_error(std::initializer_list<std::pair<std::string, std::string>> pairs) {
  return thrown<option_error>([&] { (void)parse_rocprof_options(make_options(pairs)); });
}

TEST(RocprofOptions, DefaultsWhenNothingIsGiven) {
  const auto parsed = parse_rocprof_options({});
  EXPECT_EQ(parsed.trace, strings{"kernel"});
  EXPECT_EQ(parsed.output_format, "csv");
  EXPECT_TRUE(parsed.stats);
  EXPECT_TRUE(parsed.pmc.empty());
  EXPECT_FALSE(parsed.kernel_include_regex);
  EXPECT_FALSE(parsed.summary_units);
}

TEST(RocprofOptions, EveryTraceDomainIsAccepted) {
  for (const std::string domain :
       {"kernel", "hip", "hip_runtime", "memory_copy", "rccl", "marker", "scratch"}) {
    EXPECT_EQ(parse_rocprof_options(make_options({{"trace", domain}})).trace, strings{domain});
  }
}

TEST(RocprofOptions, TraceSplitsOnCommasAndSpacesLowerCasesAndDeduplicates) {
  EXPECT_EQ(parse_rocprof_options(make_options({{"trace", "kernel,hip"}})).trace,
            (strings{"kernel", "hip"}));
  EXPECT_EQ(
      parse_rocprof_options(make_options({{"trace", " HIP  kernel,\tMemory_Copy , hip"}})).trace,
      (strings{"hip", "kernel", "memory_copy"}));
}

TEST(RocprofOptions, UnknownTraceDomainNamesTheAllowedOnesAndASuggestion) {
  const auto e = rocprof_error({{"trace", "kernel,kernal_trace,hipp"}});
  ASSERT_TRUE(e);
  EXPECT_EQ(e->collector(), "rocprof");
  EXPECT_EQ(e->key(), "trace");
  EXPECT_THAT(e->what(), HasSubstr("unknown trace domain 'kernal_trace'"));
  EXPECT_THAT(e->what(),
              HasSubstr("allowed: kernel, hip, hip_runtime, memory_copy, rccl, marker, scratch"));
  EXPECT_THAT(e->what(), HasSubstr("Fix:"));
  const auto hipp = rocprof_error({{"trace", "hipp"}});
  ASSERT_TRUE(hipp);
  EXPECT_THAT(hipp->what(), HasSubstr("Did you mean 'hip'?"));
}

TEST(RocprofOptions, EmptyTraceIsRefused) {
  for (const std::string blank : {"", " , ,  "}) {
    const auto e = rocprof_error({{"trace", blank}});
    ASSERT_TRUE(e);
    EXPECT_EQ(e->key(), "trace");
    EXPECT_THAT(e->what(), HasSubstr("names no trace domain"));
  }
}

TEST(RocprofOptions, EveryOutputFormatIsAcceptedCaseInsensitively) {
  for (const std::string format : {"csv", "json", "pftrace", "otf2", "rocpd"}) {
    EXPECT_EQ(parse_rocprof_options(make_options({{"output_format", format}})).output_format,
              format);
  }
  EXPECT_EQ(parse_rocprof_options(make_options({{"output_format", " JSON "}})).output_format,
            "json");
}

TEST(RocprofOptions, BadOutputFormatListsTheFormats) {
  const auto e = rocprof_error({{"output_format", "xml"}});
  ASSERT_TRUE(e);
  EXPECT_EQ(e->key(), "output_format");
  EXPECT_THAT(e->what(), HasSubstr("'xml' is not a rocprofv3 output format; allowed: csv, json, "
                                   "pftrace, otf2, rocpd."));
}

TEST(RocprofOptions, BooleanSpellings) {
  for (const std::string yes : {"1", "true", "TRUE", "Yes", "on", " On "}) {
    EXPECT_TRUE(parse_rocprof_options(make_options({{"stats", yes}})).stats) << yes;
  }
  for (const std::string no : {"0", "false", "False", "NO", "off"}) {
    EXPECT_FALSE(parse_rocprof_options(make_options({{"stats", no}})).stats) << no;
  }
  const auto e = rocprof_error({{"stats", "maybe"}});
  ASSERT_TRUE(e);
  EXPECT_EQ(e->key(), "stats");
  EXPECT_THAT(e->what(), HasSubstr("expected a boolean, got 'maybe'"));
}

TEST(RocprofOptions, SummaryUnits) {
  for (const std::string unit : {"sec", "msec", "usec", "nsec"}) {
    EXPECT_EQ(parse_rocprof_options(make_options({{"summary_units", unit}})).summary_units, unit);
  }
  const auto e = rocprof_error({{"summary_units", "ms"}});
  ASSERT_TRUE(e);
  EXPECT_EQ(e->key(), "summary_units");
  EXPECT_THAT(e->what(), HasSubstr("allowed: sec, msec, usec, nsec."));
  EXPECT_THAT(e->what(), HasSubstr("Did you mean 'msec'?"));
}

TEST(RocprofOptions, KernelRegexIsKeptVerbatimAndMustNotBeBlank) {
  EXPECT_EQ(parse_rocprof_options(make_options({{"kernel_include_regex", " Cijk|GEMM "}}))
                .kernel_include_regex,
            " Cijk|GEMM ");
  const auto e = rocprof_error({{"kernel_include_regex", "  "}});
  ASSERT_TRUE(e);
  EXPECT_EQ(e->key(), "kernel_include_regex");
  EXPECT_THAT(e->what(), HasSubstr("is blank"));
}

TEST(RocprofOptions, PmcKeepsCaseAndOrderAndMustNameACounter) {
  EXPECT_EQ(parse_rocprof_options(make_options({{"pmc", "SQ_WAVES GRBM_COUNT,SQ_WAVES"}})).pmc,
            (strings{"SQ_WAVES", "GRBM_COUNT"}));
  const auto e = rocprof_error({{"pmc", " , "}});
  ASSERT_TRUE(e);
  EXPECT_EQ(e->key(), "pmc");
  EXPECT_THAT(e->what(), HasSubstr("names no counter"));
}

TEST(RocprofOptions, UnknownKeyListsTheValidOnesAndSuggests) {
  const auto e = rocprof_error({{"tarce", "kernel"}});
  ASSERT_TRUE(e);
  EXPECT_EQ(e->key(), "tarce");
  EXPECT_THAT(e->what(),
              HasSubstr("rocprof: unknown option(s) [tarce]; valid: [trace, output_format, stats, "
                        "pmc, kernel_include_regex, summary_units]. Did you mean 'trace'?"));
}

TEST(RocprofOptions, InputIsNotModified) {
  const auto options = make_options({{"trace", "HIP, kernel"}, {"stats", "Off"}});
  const auto copy = options;
  (void)parse_rocprof_options(options);
  ASSERT_EQ(options.size(), copy.size());
  EXPECT_EQ(options.at("trace").text, "HIP, kernel");
  EXPECT_EQ(options.at("stats").text, "Off");
}

}  // namespace
