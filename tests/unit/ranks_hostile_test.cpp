// Per-rank records a payload (or anyone) can overwrite (issue 18, findings 7 and 8): a rank.json of
// the wrong shape is a problem naming the file and key, and no rank count, however large, sizes
// memory.
#include "aorta/error.hpp"
#include "aorta/recipe.hpp"
#include "ranks/launcher.hpp"
#include "ranks/rank_identity.hpp"
#include "ranks/rank_plan.hpp"
#include "ranks/rank_reading.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>

namespace {

namespace fs = std::filesystem;

// The H200 ncu two-rank trial, copied so that one rank's rank.json can be replaced.
class HostileRankJson : public ::testing::Test {
protected:
  void SetUp() override {
    m_dir = fs::temp_directory_path() / ("aorta-hostile-ranks-" + std::to_string(::getpid()));
    fs::remove_all(m_dir);
    fs::copy(std::string(AORTA_FIXTURES_DIR) + "/h200-ranks/ncu/trial_0", m_dir,
             fs::copy_options::recursive);
    m_spec = aorta::load_recipe(std::string(AORTA_SOURCE_DIR) +
                                "/examples/profiling/ncu/torchrun-ranks/recipe.yaml");
  }
  void TearDown() override { fs::remove_all(m_dir); }

  void replace_rank_json(int rank, const std::string& text) const {
    std::ofstream(m_dir / ("rank_" + std::to_string(rank)) / "rank.json") << text;
  }
  [[nodiscard]] std::string problems(const aorta::detail::rank_reading& reading) const {
    std::string all;
    for (const auto& line : reading.problems) all += line + "\n";
    return all;
  }

  fs::path m_dir;
  aorta::recipe m_spec;
};

TEST_F(HostileRankJson, AHostThatIsANumberIsAProblemNamingTheFileAndKey) {
  replace_rank_json(0, R"({"host": 5, "variable": "RANK", "rank": 0, "pid": 1})");
  aorta::detail::rank_reading reading;
  ASSERT_NO_THROW(reading = aorta::detail::read_rank_captures(m_spec, m_dir, 2));
  EXPECT_EQ(reading.ranks.size(), 2U);
  const std::string text = problems(reading);
  EXPECT_NE(text.find("rank_0/rank.json: 'host' is number (5), not a string"), std::string::npos)
      << text;
}

TEST_F(HostileRankJson, NotJsonOrNotAnObjectIsAProblem) {
  replace_rank_json(0, "[1, 2]");
  replace_rank_json(1, "{not json");
  const auto reading = aorta::detail::read_rank_captures(m_spec, m_dir, 2);
  const std::string text = problems(reading);
  EXPECT_NE(text.find("rank_0/rank.json: is array, not a JSON object"), std::string::npos) << text;
  EXPECT_NE(text.find("rank_1/rank.json: not valid JSON"), std::string::npos) << text;
}

TEST_F(HostileRankJson, AWorldSizeBeyondMaxRanksIsAProblemNotAnAllocation) {
  replace_rank_json(0, R"({"host": "vm", "variable": "RANK", "rank": 0, "world_size": 2147483647})");
  const auto reading = aorta::detail::read_rank_captures(m_spec, m_dir, std::nullopt);
  const std::string text = problems(reading);
  EXPECT_NE(text.find("'world_size' is 2147483647, not a whole number from 1 to 1048576"),
            std::string::npos)
      << text;
  EXPECT_LE(reading.problems.size(), 3U);
}

// The largest accepted world size with two ranks present: the missing ones are one line.
TEST_F(HostileRankJson, MissingRanksAreOneLinePerRunOfRanks) {
  replace_rank_json(1, R"({"host": "vm", "variable": "RANK", "rank": 1, "world_size": 1048576})");
  const auto reading = aorta::detail::read_rank_captures(m_spec, m_dir, std::nullopt);
  ASSERT_EQ(reading.problems.size(), 1U) << problems(reading).substr(0, 2000);
  EXPECT_EQ(reading.expected, 1048576);
  EXPECT_NE(reading.problems[0].find("ranks 2..1048575 (1048574 ranks) wrote nothing: no rank_2 .. "
                                     "rank_1048575 (expected ranks 0..1048575"),
            std::string::npos)
      << reading.problems[0];
}

TEST_F(HostileRankJson, GapsBetweenPresentRanksAreNamedEach) {
  fs::rename(m_dir / "rank_1", m_dir / "rank_3");
  const auto reading = aorta::detail::read_rank_captures(m_spec, m_dir, 5);
  const std::string text = problems(reading);
  EXPECT_NE(text.find("ranks 1..2 (2 ranks) wrote nothing: no rank_1 .. rank_2"), std::string::npos)
      << text;
  EXPECT_NE(text.find("rank 4 wrote nothing: no rank_4"), std::string::npos) << text;
}

TEST(HostileLauncher, ARankCountBeyondMaxRanksIsRefused) {
  const auto plain = aorta::load_recipe_from_string("schema_version: 1\n", "r.yaml");
  for (const auto& command :
       {std::vector<std::string>{"mpirun", "-np", "2147483647", "./a"},
        std::vector<std::string>{"torchrun", "--nproc-per-node", "65536", "--nnodes", "65536",
                                 "train.py"}}) {
    try {
      (void)aorta::detail::detect_rank_launch(plain, command, {});
      ADD_FAILURE() << command[0] << ": no error";
    } catch (const aorta::usage_error& e) {
      EXPECT_NE(std::string(e.what()).find("more than 1048576 ranks (max_ranks)"),
                std::string::npos)
          << e.what();
    }
  }
}

}  // namespace
