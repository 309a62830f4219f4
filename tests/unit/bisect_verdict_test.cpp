// The verdict a bisect step reads from its confound rows, the rows it watches, and bisect.json
// written and read back.
#include "bisect/bisect_record.hpp"
#include "bisect/bisect_step.hpp"

#include "aorta/error.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <unistd.h>

namespace {

using aorta::detail::bisect_record;
using aorta::detail::bisect_settings;
using aorta::detail::candidate_verdict;
using aorta::detail::ends_verdict;
using aorta::detail::make_row_filter;
using aorta::detail::watched_row;
using ::testing::HasSubstr;

watched_row row(const std::string& quantity, const std::string& verdict, double ratio = 1.0) {
  return watched_row{quantity, 1.0, ratio, ratio, "p 0.01", verdict};
}

TEST(BisectVerdict, TheEndsReproduceOnlyWithASlowerRow) {
  EXPECT_EQ(ends_verdict({row("ir(a)", "SAME"), row("ir(b)", "SLOWER", 3.0)}), "BAD");
  EXPECT_EQ(ends_verdict({row("ir(a)", "SAME"), row("ir(b)", "FASTER", 0.5)}), "GOOD");
  EXPECT_EQ(ends_verdict({row("ir(a)", "SAME"), row("ir(b)", "AMBIGUOUS", 1.2)}), "AMBIGUOUS");
  EXPECT_EQ(ends_verdict({row("(all)", "UNKNOWN")}), "UNKNOWN");
  EXPECT_EQ(ends_verdict({}), "UNKNOWN");
}

TEST(BisectVerdict, ACandidateIsJudgedOnTheTrackedQuantitiesOnly) {
  const std::vector<std::string> tracked{"time_ms(gemm)"};
  // Another kernel's move does not make the candidate bad: only what the ends showed counts.
  EXPECT_EQ(candidate_verdict({row("time_ms(gemm)", "SAME"), row("time_ms(copy)", "SLOWER", 2.0)},
                              tracked),
            "GOOD");
  EXPECT_EQ(candidate_verdict({row("time_ms(gemm)", "SLOWER", 1.1)}, tracked), "BAD");
  EXPECT_EQ(candidate_verdict({row("time_ms(gemm)", "AMBIGUOUS", 1.1)}, tracked), "AMBIGUOUS");
  // Nothing measured is never a pass: a tracked row missing or UNKNOWN is UNKNOWN, not GOOD.
  EXPECT_EQ(candidate_verdict({row("time_ms(copy)", "SAME")}, tracked), "UNKNOWN");
  EXPECT_EQ(candidate_verdict({row("time_ms(gemm)", "UNKNOWN")}, tracked), "UNKNOWN");
  EXPECT_EQ(candidate_verdict({row("time_ms(gemm)", "SAME")}, {}), "UNKNOWN");
}

TEST(BisectVerdict, TheGateLineChoosesTheKindsAndQuantityTheRows) {
  bisect_settings settings;
  EXPECT_TRUE(make_row_filter(settings).watches("cycles(x)"));
  settings.gate = "time +5%";
  const auto by_gate = make_row_filter(settings);
  EXPECT_TRUE(by_gate.watches("time_ms(gemm)"));
  EXPECT_FALSE(by_gate.watches("count(gemm)"));
  EXPECT_FALSE(by_gate.watches("ir(main)"));
  settings.quantities = {"ir(main)"};
  const auto by_name = make_row_filter(settings);
  EXPECT_TRUE(by_name.watches("ir(main)"));
  EXPECT_FALSE(by_name.watches("ir(main2)"));
  settings.quantities.clear();
  settings.gate = "alpha 0.05";
  EXPECT_THROW((void)make_row_filter(settings), aorta::usage_error);
}

std::filesystem::path scratch_file(const std::string& name) {
  const auto dir =
      std::filesystem::temp_directory_path() / ("aorta-bisect-test-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  return dir / name;
}

TEST(BisectRecord, WrittenAndReadBackTheSame) {
  bisect_record record;
  record.settings.good = std::string(40, 'a');
  record.settings.bad = std::string(40, 'b');
  record.settings.command = {"./bench", "--n", "3"};
  record.settings.seed = 18446744073709551615ULL;
  record.settings.threshold = 1.05;
  record.candidates = {std::string(40, 'c'), record.settings.bad};
  record.built.push_back({record.settings.good, true, 1.5, "builds/a"});
  aorta::detail::bisect_step step;
  step.commit = record.settings.bad;
  step.verdict = "BAD";
  step.ratio = 1.2;
  step.rows = {row("time_ms(gemm)", "SLOWER", 1.2)};
  record.steps.push_back(step);
  record.culprit = record.settings.bad;
  record.culprit_rows = step.rows;
  const auto file = scratch_file("bisect.json");
  aorta::detail::write_bisect_record(file, record);
  const bisect_record back = aorta::detail::read_bisect_record(file);
  EXPECT_EQ(back.settings.seed, record.settings.seed);
  EXPECT_EQ(back.settings.command, record.settings.command);
  EXPECT_EQ(back.settings.threshold, record.settings.threshold);
  ASSERT_EQ(back.steps.size(), 1U);
  EXPECT_EQ(back.steps[0].ratio, 1.2);
  ASSERT_TRUE(back.culprit);
  EXPECT_EQ(*back.culprit, record.settings.bad);
  EXPECT_EQ(back.culprit_rows.size(), 1U);
  std::filesystem::remove_all(file.parent_path());
}

TEST(BisectRecord, AForeignOrBrokenFileIsRefusedNamingTheFix) {
  const auto file = scratch_file("bisect.json");
  for (const char* text : {"{\"schema\": \"aorta-matrix\", \"schema_version\": 1}",
                           "{\"schema\": \"aorta-bisect\", \"schema_version\": 99}",
                           "{\"schema\": \"aorta-bisect\", \"schema_version\": 1}", "[1,"}) {
    std::ofstream(file) << text;
    try {
      (void)aorta::detail::read_bisect_record(file);
      ADD_FAILURE() << "accepted: " << text;
    } catch (const aorta::setup_error& e) {
      EXPECT_THAT(e.what(), HasSubstr("Fix: choose another --output"));
    }
  }
  std::filesystem::remove_all(file.parent_path());
}

}  // namespace
