// Version probes write the tool's output to a temporary file (issue 18, finding 18): only inside a
// private directory aorta made, so a symlink planted at the old shared name is never followed.
#include "aorta/launch_plan.hpp"
#include "collectors/collector_support.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <unistd.h>

namespace {

namespace fs = std::filesystem;

std::string content_of(const fs::path& file) {
  std::ifstream in(file);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

TEST(VersionProbe, APlantedSymlinkInTmpdirIsNeitherFollowedNorRemoved) {
  const fs::path tmpdir =
      fs::temp_directory_path() / ("aorta-probe-test-" + std::to_string(::getpid()));
  fs::remove_all(tmpdir);
  fs::create_directories(tmpdir);
  const fs::path target = tmpdir / "precious.txt";
  std::ofstream(target) << "precious\n";
  // The name the probes used to write through, planted by another user.
  const fs::path planted = tmpdir / ("aorta-version-" + std::to_string(::getpid()) + ".txt");
  fs::create_symlink(target, planted);

  const char* previous = std::getenv("TMPDIR");
  const std::string kept = previous != nullptr ? previous : "";
  ::setenv("TMPDIR", tmpdir.c_str(), 1);
  const auto line =
      aorta::detail::first_output_line({"echo", "tool 1.2.3"}, aorta::current_environment());
  if (previous != nullptr) {
    ::setenv("TMPDIR", kept.c_str(), 1);
  } else {
    ::unsetenv("TMPDIR");
  }

  EXPECT_EQ(line, std::optional<std::string>("tool 1.2.3"));
  EXPECT_EQ(content_of(target), "precious\n");
  EXPECT_TRUE(fs::is_symlink(planted));
  // The private directory is gone: only what the test made is left.
  std::size_t entries = 0;
  for ([[maybe_unused]] const auto& entry : fs::directory_iterator(tmpdir)) ++entries;
  EXPECT_EQ(entries, 2U);
  fs::remove_all(tmpdir);
}

}  // namespace
