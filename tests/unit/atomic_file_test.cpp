// Whole-file writes go through a temporary file next to the target (issue 18, containment): it is
// created exclusively and never through a symlink, so a name planted in a shared directory (a
// baseline directory, an --output) cannot redirect the write.
#include "atomic_file.hpp"

#include <gtest/gtest.h>

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

TEST(AtomicFile, APlantedTemporaryNameIsSkippedNotWrittenThrough) {
  const fs::path dir = fs::temp_directory_path() / ("aorta-atomic-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  const fs::path victim = dir / "victim.txt";
  std::ofstream(victim) << "precious\n";
  const fs::path target = dir / "result.json";
  // The first temporary names this process would use.
  for (int counter = 0; counter < 3; ++counter) {
    fs::create_symlink(victim, dir / ("result.json.tmp-" + std::to_string(::getpid()) + "-" +
                                      std::to_string(counter)));
  }

  aorta::detail::write_file_atomically(target, "{}\n");

  EXPECT_EQ(content_of(victim), "precious\n");
  EXPECT_FALSE(fs::is_symlink(target));
  EXPECT_EQ(content_of(target), "{}\n");
  fs::remove_all(dir);
}

}  // namespace
