// Baselines someone else wrote (issue 18, findings 19 and 24): a key of the wrong type names the
// file and key instead of an internal error, a trial count the file cannot hold is refused before
// anything is sized by it, and no test name leads out of the baseline directory.
#include "aorta/error.hpp"
#include "baseline/baseline_file.hpp"
#include "contained_path.hpp"

#include <gtest/gtest.h>

#include <string>

namespace {

using namespace aorta::detail;
using json = nlohmann::json;

json minimal_baseline() {
  return json{{"schema", "aorta-baseline"}, {"schema_version", 1}, {"test", "vecadd"},
              {"trials", 2},
              {"metrics",
               {{"proton_gpu_time_ms",
                 {{"samples", {1.0, 2.0}}, {"median", 1.5}, {"q1", 1.25}, {"q3", 1.75},
                  {"min", 1.0}, {"n", 2}}}}}};
}

// What reading `file_json` says: the aorta::error's message, or "(accepted)". Any other exception
// (nlohmann's type_error, bad_alloc) escapes and fails the test.
std::string error_of(const json& file_json) {
  try {
    (void)baseline_from_json(file_json, "base/vecadd.json", "vecadd");
  } catch (const aorta::error& e) {
    return e.what();
  }
  return "(accepted)";
}

TEST(BaselineHostile, TheMinimalBaselineIsAccepted) {
  EXPECT_EQ(error_of(minimal_baseline()), "(accepted)");
}

TEST(BaselineHostile, WrongTypesNameTheFileAndTheKey) {
  const std::vector<std::pair<std::pair<std::string, json>, std::string>> cases{
      {{"schema", 5}, "is not an aorta baseline"},
      {{"schema_version", "1"}, "has schema_version \"1\""},
      {{"test", 5}, "'test' is number (5), not a string"},
      {{"provenance", json::array({1})}, "'provenance' is array, not an object"},
      {{"trials", "2"}, "'trials' is \"2\""},
      {{"fingerprint", json{{"gpu", 5}}}, "'fingerprint' is not an object of strings"},
  };
  for (const auto& [change, expected] : cases) {
    auto file_json = minimal_baseline();
    file_json[change.first] = change.second;
    const std::string message = error_of(file_json);
    EXPECT_NE(message.find("baseline base/vecadd.json: " + expected), std::string::npos)
        << change.first << ": " << message;
  }
}

TEST(BaselineHostile, ATrialCountBeyondTheLimitIsRefusedBeforeAnythingIsSized) {
  auto file_json = minimal_baseline();
  file_json["trials"] = 100'000'000;
  EXPECT_NE(error_of(file_json).find("'trials' is 100000000, not a positive count of at most 1000000 "
                                     "(max_baseline_trials"),
            std::string::npos)
      << error_of(file_json);
  file_json["trials"] = 1e8;
  EXPECT_NE(error_of(file_json).find("'trials' is 100000000.0, not a positive count"), std::string::npos)
      << error_of(file_json);
}

TEST(BaselineHostile, ACountTheSamplesDoNotHaveIsRefused) {
  auto file_json = minimal_baseline();
  file_json["trials"] = 1'000'000;
  EXPECT_NE(error_of(file_json).find("has 2 values but the baseline has 1000000 trials"),
            std::string::npos)
      << error_of(file_json);
}

TEST(BaselineHostile, TestNamesThatLeaveTheDirectoryAreRefused) {
  for (const std::string name : {"../../x", "/etc/x", "a/../../x", "..", ".", "", "a/b"}) {
    EXPECT_THROW((void)baseline_path("base", name), aorta::usage_error) << name;
  }
  EXPECT_EQ(baseline_path("base", "suite.vecadd-1"), std::filesystem::path("base/suite.vecadd-1.json"));
}

TEST(ContainedPath, SubdirectoriesOnlyWhenAskedAndNeverUpward) {
  EXPECT_EQ(contained_path("p", "a/b", "cell", path_nesting::subdirectories),
            std::filesystem::path("p/a/b"));
  for (const std::string name : {"a/../b", "../a", "a//b", "a/", "/a", "./a"}) {
    EXPECT_THROW((void)contained_path("p", name, "cell", path_nesting::subdirectories),
                 aorta::usage_error)
        << name;
  }
  try {
    (void)contained_path("trial_0/rank_0", "../../../x", "rank-exec --collectors");
    ADD_FAILURE() << "accepted";
  } catch (const aorta::usage_error& e) {
    EXPECT_NE(std::string(e.what()).find("rank-exec --collectors '../../../x' cannot become a "
                                         "path inside trial_0/rank_0"),
              std::string::npos)
        << e.what();
  }
}

}  // namespace
