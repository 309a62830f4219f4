// The readers' shared file discovery: recursive, in path order, never through a symlink.
#include "captures/capture_files.hpp"

#include "aorta/error.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <unistd.h>

namespace {
namespace fs = std::filesystem;

class capture_files_test : public ::testing::Test {
protected:
  void SetUp() override {
    m_root = fs::temp_directory_path() / ("aorta_capture_files_" + std::to_string(::getpid()));
    fs::remove_all(m_root);
    fs::create_directories(m_root / "out" / "rank1");
    fs::create_directories(m_root / "elsewhere");
  }
  void TearDown() override { fs::remove_all(m_root); }
  void touch(const fs::path& file) { std::ofstream(file) << "x"; }

  fs::path m_root;
};

bool is_csv(const std::string& name) {
  return name.ends_with(".csv");
}

TEST_F(capture_files_test, finds_matching_regular_files_recursively_in_path_order) {
  touch(m_root / "out" / "b.csv");
  touch(m_root / "out" / "rank1" / "a.csv");
  touch(m_root / "out" / "notes.txt");
  const auto files = aorta::detail::list_capture_files(m_root / "out", is_csv, "ncu");
  const std::vector<fs::path> expected{m_root / "out" / "b.csv",
                                       m_root / "out" / "rank1" / "a.csv"};
  EXPECT_EQ(files, expected);
}

// A payload that can write into the output directory must not point a reader elsewhere.
TEST_F(capture_files_test, symlinked_files_and_directories_are_not_read) {
  touch(m_root / "out" / "real.csv");
  touch(m_root / "elsewhere" / "planted.csv");
  fs::create_symlink(m_root / "elsewhere" / "planted.csv", m_root / "out" / "link.csv");
  fs::create_directory_symlink(m_root / "elsewhere", m_root / "out" / "linked_dir");
  const auto files = aorta::detail::list_capture_files(m_root / "out", is_csv, "ncu");
  ASSERT_EQ(files.size(), 1U);
  EXPECT_EQ(files[0], m_root / "out" / "real.csv");
}

TEST_F(capture_files_test, an_absent_directory_is_a_capture_error_naming_it) {
  try {
    (void)aorta::detail::list_capture_files(m_root / "absent", is_csv, "ncu");
    FAIL() << "expected a capture_error";
  } catch (const aorta::capture_error& e) {
    EXPECT_NE(std::string(e.what()).find("cannot list the ncu output directory"),
              std::string::npos);
    EXPECT_NE(std::string(e.what()).find("absent"), std::string::npos);
  }
}

}  // namespace
