// The capture watch is asked from the loop that passes signals on and enforces the timeout
// (issue 18, finding 12): asking must never wait for a capture to be read, however long that takes.
#include "aorta/recipe.hpp"
#include "sweep/capture_watch.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <unistd.h>

namespace {

namespace fs = std::filesystem;
using std::chrono::milliseconds;
using steady = std::chrono::steady_clock;

// A valid callgrind capture of `repeats` cost lines: big enough that reading it takes a while.
void write_big_callgrind_capture(const fs::path& file, int repeats) {
  std::ofstream out(file);
  out << "# callgrind format\nversion: 1\ncreator: callgrind-3.19.0\npid: 1\ncmd: work\npart: 1\n\n"
         "positions: line\nevents: Ir\nsummary: "
      << repeats << "\n\nfl=(1) work.cpp\nfn=(1) work()\n";
  for (int i = 0; i < repeats; ++i) out << (i % 1000) + 1 << " 1\n";
  out << "\ntotals: " << repeats << "\n";
}

TEST(CaptureWatch, AskingNeverWaitsForARead) {
  const fs::path trial = fs::temp_directory_path() / ("aorta-watch-" + std::to_string(::getpid()));
  fs::remove_all(trial);
  fs::create_directories(trial / "callgrind");
  write_big_callgrind_capture(trial / "callgrind" / "callgrind.out.1", 8'000'000);
  const auto spec =
      aorta::load_recipe_from_string("schema_version: 1\ncollect: [callgrind]\n", "r.yaml");

  aorta::detail::capture_watch watch(spec, trial, {}, milliseconds(0));
  ASSERT_TRUE(watch.active());
  // Asked every 50 ms, as often as run_process's loop may: each answer must come at once while
  // the watch lists, settles and reads the capture, until it finds it complete.
  auto slowest = steady::duration::zero();
  bool hung = false;
  const auto give_up = steady::now() + std::chrono::seconds(120);
  while (!hung && steady::now() < give_up) {
    const auto asked = steady::now();
    hung = watch.hung();
    slowest = std::max(slowest, steady::now() - asked);
    std::this_thread::sleep_for(milliseconds(50));
  }
  watch.stop();
  EXPECT_TRUE(hung) << "the complete capture was never noticed";
  EXPECT_LT(std::chrono::duration_cast<milliseconds>(slowest).count(), 100)
      << "hung() waited for a capture read";
  fs::remove_all(trial);
}

}  // namespace
