// Format detection asks each collector (recognises()) which files are its own: every kind of
// capture in tests/fixtures is recognised by the collector that reads it, and no fixture file is
// claimed by two collectors, so the registry's order never decides a real capture's reader.
#include "collectors/format_detection.hpp"

#include <gtest/gtest.h>

#include <unistd.h>

#include <fstream>
#include <string>
#include <vector>

namespace aorta {
namespace {

namespace fs = std::filesystem;
const fs::path fixtures = fs::path(AORTA_FIXTURES_DIR);

std::string recognised(const fs::path& file) {
  const auto* collector = detail::recognise_capture_file(file);
  return collector == nullptr ? "(none)" : std::string(collector->name());
}

TEST(format_detection, each_collector_recognises_its_own_fixtures) {
  EXPECT_EQ(recognised(fixtures / "sanitizer/h200/memcheck-oob-padding.log"), "sanitizer");
  EXPECT_EQ(recognised(fixtures / "sanitizer/h200/racecheck-race.log"), "sanitizer");
  EXPECT_EQ(recognised(fixtures / "sanitizer/h200/memcheck-clean.log"), "sanitizer");
  EXPECT_EQ(recognised(fixtures / "h200/ncu_vecadd/ncu.csv"), "ncu");
  EXPECT_EQ(recognised(fixtures / "ncu/preamble_details.csv"), "ncu");
  EXPECT_EQ(recognised(fixtures / "h200/vecadd_cupti/proton.hatchet"), "proton");
  EXPECT_EQ(recognised(fixtures / "proton-formats/streams.chrome_trace"), "proton");
  EXPECT_EQ(recognised(fixtures / "rocprof/flat_stats/aorta_kernel_trace.csv"), "rocprof");
  EXPECT_EQ(recognised(fixtures / "rocprof/flat_stats/aorta_kernel_stats.csv"), "rocprof");
}

TEST(format_detection, a_rocpd_database_is_recognised_by_its_sqlite_header_whatever_its_name) {
  const fs::path dir = fs::temp_directory_path() / ("aorta-detect-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  std::ofstream(dir / "host-4242.db", std::ios::binary)
      << std::string("SQLite format 3\0", 16) << std::string(100, '\0');
  std::ofstream(dir / "notes.db") << "plain text, not SQLite";
  EXPECT_EQ(recognised(dir / "host-4242.db"), "rocprof");
  EXPECT_EQ(recognised(dir / "notes.db"), "(none)");
  fs::remove_all(dir);
}

TEST(format_detection, a_callgrind_file_is_recognised_by_name_or_header) {
  const fs::path dir = fs::temp_directory_path() / ("aorta-detect-cg-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  std::ofstream(dir / "profile.txt") << "# callgrind format\nversion: 1\ncreator: callgrind-3.19\n";
  std::ofstream(dir / "callgrind.out.77") << "";
  EXPECT_EQ(recognised(dir / "profile.txt"), "callgrind");
  EXPECT_EQ(recognised(dir / "callgrind.out.77"), "callgrind");
  fs::remove_all(dir);
}

TEST(format_detection, a_backup_of_a_proton_output_is_not_a_capture_but_a_renamed_json_is) {
  const fs::path dir = fs::temp_directory_path() / ("aorta-detect-pr-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const std::string tree = R"([{"frame": {"name": "ROOT"}, "metrics": {}, "children": []}])";
  std::ofstream(dir / "proton.hatchet~") << tree;
  std::ofstream(dir / "proton.hatchet.bak") << tree;
  std::ofstream(dir / "profile.json") << tree;
  EXPECT_EQ(recognised(dir / "proton.hatchet~"), "(none)");
  EXPECT_EQ(recognised(dir / "proton.hatchet.bak"), "(none)");
  EXPECT_EQ(recognised(dir / "profile.json"), "proton");
  fs::remove_all(dir);
}

TEST(format_detection, no_fixture_file_is_claimed_by_two_collectors) {
  std::size_t looked_at = 0;
  for (const auto& entry : fs::recursive_directory_iterator(fixtures)) {
    if (!entry.is_regular_file()) continue;
    ++looked_at;
    const file_sample sample = detail::sample_file(entry.path());
    std::vector<std::string> claimants;
    for (const auto* collector : collectors()) {
      if (collector->recognises(sample)) claimants.emplace_back(collector->name());
    }
    EXPECT_LE(claimants.size(), 1U) << entry.path() << " is claimed by " << claimants.front()
                                    << " and " << claimants.back();
  }
  EXPECT_GT(looked_at, 100U);
}

TEST(format_detection, a_directory_lists_every_format_below_it) {
  const auto formats = detail::detect_capture_formats(fixtures / "h200/ncu_plus_instrumentation");
  EXPECT_EQ(formats, (std::vector<std::string>{"ncu", "proton"}));
}

TEST(format_detection, messages_name_formats_from_the_collectors) {
  EXPECT_EQ(detail::describe_capture_format("sanitizer"), "a compute-sanitizer log");
  EXPECT_EQ(detail::describe_capture_format("nosuch"), "nosuch");
}

}  // namespace
}  // namespace aorta
