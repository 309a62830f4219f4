// Whole-file writes go through a temporary file next to the target (issue 18, containment): it is
// created exclusively and never through a symlink, so a name planted in a shared directory (a
// baseline directory, an --output) cannot redirect the write.
#include "atomic_file.hpp"

#include "aorta/error.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <csignal>
#include <sys/resource.h>
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

// A streamed write that fails (a file size limit, as a full disk would) throws naming the
// temporary file and leaves neither it nor a partial target behind; the old target stays.
TEST(AtomicFile, AFailedStreamedWriteKeepsTheOldFileAndRemovesTheTemporary) {
  const fs::path dir = fs::temp_directory_path() / ("aorta-atomic-fail-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  const fs::path target = dir / "result.json";
  std::ofstream(target) << "old\n";
  rlimit before{};
  ASSERT_EQ(::getrlimit(RLIMIT_FSIZE, &before), 0);
  const auto old_handler = std::signal(SIGXFSZ, SIG_IGN);
  rlimit small = before;
  small.rlim_cur = 100000;
  ASSERT_EQ(::setrlimit(RLIMIT_FSIZE, &small), 0);
  std::string message;
  try {
    aorta::detail::write_file_atomically(target, [](std::ostream& out) {
      for (int line = 0; line < 20000; ++line) out << "line " << line << " of a large document\n";
    });
  } catch (const aorta::setup_error& e) {
    message = e.what();
  }
  ::setrlimit(RLIMIT_FSIZE, &before);
  std::signal(SIGXFSZ, old_handler);
  EXPECT_NE(message.find("writing " + target.string() + ".tmp-"), std::string::npos) << message;
  EXPECT_EQ(content_of(target), "old\n");
  EXPECT_EQ(std::distance(fs::directory_iterator(dir), fs::directory_iterator()), 1);
  fs::remove_all(dir);
}

// Streamed content larger than the write buffer arrives whole and in order.
TEST(AtomicFile, StreamedContentEqualsTheSameTextWrittenAtOnce) {
  const fs::path dir = fs::temp_directory_path() / ("aorta-atomic-stream-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  std::string text;
  for (int line = 0; line < 30000; ++line) text += "row " + std::to_string(line) + ",\n";
  aorta::detail::write_file_atomically(dir / "streamed", [&](std::ostream& out) {
    for (std::size_t at = 0; at < text.size(); at += 777) out << text.substr(at, 777);
  });
  EXPECT_EQ(content_of(dir / "streamed"), text);
  fs::remove_all(dir);
}

}  // namespace
