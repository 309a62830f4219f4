// aorta::name_regex is RE2 underneath: linear time, no recursion (issue 10, findings 2 and 16).
#include "aorta/check.hpp"
#include "aorta/metrics.hpp"
#include "aorta/name_regex.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>
#include <stdexcept>
#include <string>

namespace {

using aorta::name_regex;
using ::testing::HasSubstr;

std::string compile_error(const std::string& pattern) {
  try {
    (void)name_regex::compile(pattern);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "compiled";
}

TEST(NameRegex, SearchesLikeGrep) {
  const auto sgemm = name_regex::compile("sgemm");
  EXPECT_TRUE(sgemm.search("sgemm_tiled(float const*, float*, int)"));
  EXPECT_FALSE(sgemm.search("dgemm"));
  EXPECT_TRUE(name_regex::compile("^add_kernel$").search("add_kernel"));
  EXPECT_FALSE(name_regex::compile("^add_kernel$").search("add_kernel_v2"));
  EXPECT_TRUE(name_regex::compile("\\d+x\\d+").search("MT64x128"));
  EXPECT_EQ(name_regex::compile("a|b").pattern(), "a|b");
}

// std::regex recursed once per character: these crashed on a 20-60k character name (finding 2).
TEST(NameRegex, LongNamesDoNotRecurse) {
  const std::string name(200'000, 'a');
  EXPECT_TRUE(name_regex::compile("count(.*)").search("count(" + name + ")"));
  EXPECT_TRUE(name_regex::compile("(a|b)*").search(name));
  EXPECT_TRUE(name_regex::compile("(.*)").search(name));
}

// count((a*)*b) backtracked exponentially: > 60 s on a 31-character name (finding 16).
TEST(NameRegex, CatastrophicPatternIsLinear) {
  const auto started = std::chrono::steady_clock::now();
  const auto pattern = name_regex::compile("(a*)*b");
  EXPECT_FALSE(pattern.search(std::string(31, 'a')));
  EXPECT_FALSE(pattern.search(std::string(100'000, 'a')));
  EXPECT_LT(std::chrono::steady_clock::now() - started, std::chrono::seconds(5));
}

TEST(NameRegex, UnsupportedSyntaxIsAClearError) {
  EXPECT_THAT(compile_error("(a)\\1"), HasSubstr("no backreferences"));
  EXPECT_THAT(compile_error("foo(?=bar)"), HasSubstr("lookaround"));
  EXPECT_THAT(compile_error("no GPU ("), HasSubstr("missing )"));
  // The fuzzed compile that overflowed a signed int in libstdc++'s regex compiler.
  EXPECT_NE(compile_error("\\88888888888888888888"), "compiled");
}

TEST(NameRegex, OversizedPatternIsRefusedNamingTheLimit) {
  // RE2 caps a repeat at 1000 and nested repeats by their product, before any memory is spent.
  EXPECT_THAT(compile_error("(a{1000}){1000}"), HasSubstr("invalid repetition size"));
  std::string wide;
  for (int i = 0; i < 1000; ++i) wide += "[a-z]{1000}";
  EXPECT_THAT(compile_error(wide), HasSubstr("name_regex_max_memory"));
}

TEST(NameRegex, NameThatIsNotUtf8IsSearched) {
  EXPECT_TRUE(name_regex::compile("bad").search("\xff\xfe"
                                                "bad\xff"));
  // RE2 reads names as UTF-8: '.' matches characters, and a byte that is none is not one
  // (docs/checks-and-metrics.md says so).
  EXPECT_TRUE(name_regex::compile("^.*name$")
                  .search("b\xc3\xa4"
                          "dname"));
  EXPECT_FALSE(name_regex::compile("^bad.name$").search("bad\xffname"));
}

// Finding 2 end to end: a check over a 60,000-character kernel name.
TEST(NameRegex, CheckOverLongKernelName) {
  aorta::capture source;
  source.collector = "rocprof";
  source.kernels.push_back({std::string(60'000, 'a') + "b", 1, 10.0});
  const std::vector<aorta::capture> captures{source};
  const auto metrics = aorta::compute_metrics(source);
  for (const char* text : {"count(.*) == 1", "count((a|b)*) == 1", "count((a*)*b) == 1"}) {
    const auto result =
        aorta::evaluate_check(aorta::check_expression::parse(text), captures, metrics);
    EXPECT_TRUE(result.passed) << text << ": " << result.message;
  }
}

}  // namespace
