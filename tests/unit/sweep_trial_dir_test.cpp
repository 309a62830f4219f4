// The trial directory is deleted and recreated before every trial: a rerun must never report a
// previous attempt's files, and aorta must never delete through a link or over a file.
#include "aorta/error.hpp"
#include "record/trial_dir.hpp"
#include "unit/process_test_support.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <string>

namespace aorta::detail {
namespace {

namespace fs = std::filesystem;
using test::read_file;
using test::scratch_dir;
using test::write_file;

std::size_t entries_in(const fs::path& dir) {
  std::size_t count = 0;
  for ([[maybe_unused]] const auto& entry : fs::directory_iterator(dir)) ++count;
  return count;
}

std::string setup_error_message(const fs::path& trial_dir) {
  try {
    prepare_trial_dir(trial_dir, {"proton"});
  } catch (const setup_error& e) {
    return e.what();
  }
  return "<no setup_error>";
}

TEST(PrepareTrialDir, CreatesTheTrialAndOneEmptyDirectoryPerCollector) {
  const scratch_dir scratch;
  const fs::path trial = scratch / "results/trial_0";
  prepare_trial_dir(trial, {"rocprof", "proton"});
  EXPECT_TRUE(fs::is_directory(trial / "rocprof"));
  EXPECT_TRUE(fs::is_directory(trial / "proton"));
  EXPECT_EQ(entries_in(trial), 2U);
  EXPECT_EQ(entries_in(trial / "proton"), 0U);
}

TEST(PrepareTrialDir, WithoutCollectorsCreatesAnEmptyTrialDirectory) {
  const scratch_dir scratch;
  prepare_trial_dir(scratch / "trial_0", {});
  EXPECT_TRUE(fs::is_directory(scratch / "trial_0"));
  EXPECT_EQ(entries_in(scratch / "trial_0"), 0U);
}

TEST(PrepareTrialDir, RemovesWhatAPreviousRunLeft) {
  const scratch_dir scratch;
  const fs::path trial = scratch / "trial_0";
  fs::create_directories(trial / "proton/old");
  write_file(trial / "result.json", "{\"verdict\":\"pass\"}");
  write_file(trial / "proton/proton.hatchet", "[]");
  write_file(trial / "proton/old/part.hatchet", "[]");
  fs::create_directories(trial / "ncu");

  prepare_trial_dir(trial, {"proton"});
  EXPECT_FALSE(fs::exists(trial / "result.json"));
  EXPECT_FALSE(fs::exists(trial / "ncu"));
  EXPECT_TRUE(fs::is_directory(trial / "proton"));
  EXPECT_EQ(entries_in(trial / "proton"), 0U);
  EXPECT_EQ(entries_in(trial), 1U);
}

TEST(PrepareTrialDir, RefusesASymlinkAndLeavesItsTargetAlone) {
  const scratch_dir scratch;
  fs::create_directories(scratch / "precious");
  write_file(scratch / "precious/keep.txt", "keep");
  fs::create_directory_symlink(scratch / "precious", scratch / "trial_0");

  const std::string message = setup_error_message(scratch / "trial_0");
  EXPECT_NE(message.find((scratch / "trial_0").string()), std::string::npos) << message;
  EXPECT_NE(message.find("it is a symlink"), std::string::npos) << message;
  EXPECT_NE(message.find("choose another --output"), std::string::npos) << message;
  EXPECT_TRUE(fs::is_symlink(scratch / "trial_0"));
  EXPECT_EQ(read_file(scratch / "precious/keep.txt"), "keep");
}

TEST(PrepareTrialDir, RefusesADanglingSymlink) {
  const scratch_dir scratch;
  fs::create_directory_symlink(scratch / "nowhere", scratch / "trial_0");
  EXPECT_NE(setup_error_message(scratch / "trial_0").find("symlink"), std::string::npos);
  EXPECT_FALSE(fs::exists(scratch / "nowhere"));
}

TEST(PrepareTrialDir, RefusesAFileInTheWayAndKeepsIt) {
  const scratch_dir scratch;
  write_file(scratch / "trial_0", "not a directory");
  const std::string message = setup_error_message(scratch / "trial_0");
  EXPECT_NE(message.find("a file is in the way"), std::string::npos) << message;
  EXPECT_NE(message.find((scratch / "trial_0").string()), std::string::npos) << message;
  EXPECT_EQ(read_file(scratch / "trial_0"), "not a directory");
}

// A link inside an old trial directory is removed as a link: what it points at survives.
TEST(PrepareTrialDir, RemovesLinksInsideWithoutFollowingThem) {
  const scratch_dir scratch;
  fs::create_directories(scratch / "elsewhere");
  write_file(scratch / "elsewhere/data.csv", "x");
  fs::create_directories(scratch / "trial_0");
  fs::create_directory_symlink(scratch / "elsewhere", scratch / "trial_0/rocprof");

  prepare_trial_dir(scratch / "trial_0", {"rocprof"});
  EXPECT_FALSE(fs::is_symlink(scratch / "trial_0/rocprof"));
  EXPECT_TRUE(fs::is_directory(scratch / "trial_0/rocprof"));
  EXPECT_EQ(entries_in(scratch / "trial_0/rocprof"), 0U);
  EXPECT_EQ(read_file(scratch / "elsewhere/data.csv"), "x");
}

TEST(PrepareTrialDir, AFileWhereAParentShouldBeIsASetupError) {
  const scratch_dir scratch;
  write_file(scratch / "results", "a file");
  EXPECT_THROW(prepare_trial_dir(scratch / "results/trial_0", {"proton"}), setup_error);
  EXPECT_EQ(read_file(scratch / "results"), "a file");
}

TEST(WriteCommandRecord, RecordsTheCommandTheWrappedArgvAndTheEnvironmentChanges) {
  const scratch_dir scratch;
  launch_plan plan;
  plan.argv = {"valgrind", "--tool=callgrind", "./payload", "a b"};
  plan.env_set = {{"AORTA_PROTON_NAME", "/tmp/x/proton"}};
  plan.env_unset = {"HIP_VISIBLE_DEVICES"};
  plan.warnings = {"translated HIP_VISIBLE_DEVICES"};
  write_command_record(scratch / "command.json", {"./payload", "a b"}, plan);

  const auto record = nlohmann::json::parse(read_file(scratch / "command.json"));
  EXPECT_EQ(record.at("schema"), "aorta-command");
  EXPECT_EQ(record.at("schema_version"), 1);
  EXPECT_EQ(record.at("command"), nlohmann::json({"./payload", "a b"}));
  EXPECT_EQ(record.at("argv"),
            nlohmann::json({"valgrind", "--tool=callgrind", "./payload", "a b"}));
  EXPECT_EQ(record.at("env_set").at("AORTA_PROTON_NAME"), "/tmp/x/proton");
  EXPECT_EQ(record.at("env_unset"), nlohmann::json({"HIP_VISIBLE_DEVICES"}));
  EXPECT_EQ(record.at("warnings").size(), 1U);
}

TEST(WriteCommandRecord, AnUnwritablePathIsASetupError) {
  const scratch_dir scratch;
  EXPECT_THROW(write_command_record(scratch / "missing-dir/command.json", {"x"}, launch_plan{}),
               setup_error);
}

}  // namespace
}  // namespace aorta::detail
