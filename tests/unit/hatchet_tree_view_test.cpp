// `aorta view` output for small trees whose inclusive values are summed by hand.
#include "aorta/error.hpp"
#include "captures/frame_tree.hpp"
#include "captures/tree_view.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>

namespace aorta {
namespace {

namespace fs = std::filesystem;

class hatchet_tree_view : public ::testing::Test {
protected:
  void SetUp() override {
    const ::testing::UnitTest& unit = *::testing::UnitTest::GetInstance();
    m_file = fs::temp_directory_path() / ("aorta_tree_view_" + std::to_string(unit.random_seed()) +
                                          "_" + unit.current_test_info()->name() + ".hatchet");
    // Key orders differ on purpose; children come before frame in "big".
    std::ofstream(m_file) << R"j([{"frame":{"name":"ROOT"},"metrics":{"time (ns)":0,"count":0},
      "children":[
        {"frame":{"name":"small.py:1@f"},"metrics":{},"children":[
          {"frame":{"name":"k1"},"metrics":{"time (ns)":1000000,"count":2},"children":[]}]},
        {"children":[
          {"frame":{"name":"k3"},"metrics":{"time (ns)":500000,"count":5},"children":[]},
          {"metrics":{"count":1,"time (us)":2500},"frame":{"name":"k2"},"children":[]}],
         "frame":{"name":"big.py:2@g"},"metrics":{}}]},
      {"CUDA":{"0":{"arch":"90"}}}])j";
  }
  void TearDown() override { fs::remove(m_file); }

  std::string render(std::string_view metric) {
    std::ostringstream out;
    render_hatchet_tree(m_file, metric, out);
    return out.str();
  }

  // The first line: which metric the unit-less values are, and of which file.
  std::string header(std::string_view metric) const {
    return std::string(metric) + " of " + m_file.string() + "\n";
  }

  fs::path m_file;
};

// Frames above kernels end with the scope path a check writes for them (issue 12).
TEST_F(hatchet_tree_view, default_metric_is_time_ms_with_children_sorted_by_value) {
  EXPECT_EQ(render(""), header("time/ms") + "4.000 ROOT\n"
                                            "├─ 3.000 big.py:2@g   [under(big\\.py:2@g)]\n"
                                            "│  ├─ 2.500 k2\n"
                                            "│  └─ 0.500 k3\n"
                                            "└─ 1.000 small.py:1@f   [under(small\\.py:1@f)]\n"
                                            "   └─ 1.000 k1\n");
}

TEST_F(hatchet_tree_view, count_reorders_by_launches) {
  EXPECT_EQ(render("count"), header("count") + "8 ROOT\n"
                                               "├─ 6 big.py:2@g   [under(big\\.py:2@g)]\n"
                                               "│  ├─ 5 k3\n"
                                               "│  └─ 1 k2\n"
                                               "└─ 2 small.py:1@f   [under(small\\.py:1@f)]\n"
                                               "   └─ 2 k1\n");
  const std::string us = render("time/us");
  const std::string us_head = header("time/us");
  ASSERT_EQ(us.substr(0, us_head.size()), us_head);
  EXPECT_EQ(us.substr(us_head.size(), us.find('\n', us_head.size()) - us_head.size()),
            "4000.000 ROOT");
}

TEST_F(hatchet_tree_view, unknown_or_absent_metrics_are_usage_errors) {
  try {
    static_cast<void>(render("flops"));
    FAIL() << "expected usage_error";
  } catch (const usage_error& e) {
    EXPECT_NE(std::string(e.what()).find("available: time/ns, time/us, time/ms, time/s, count, "
                                         "cycles, normalized_cycles"),
              std::string::npos)
        << e.what();
  }
  try {
    static_cast<void>(render("cycles"));
    FAIL() << "expected usage_error";
  } catch (const usage_error& e) {
    EXPECT_NE(std::string(e.what()).find("choose one of: time/ns, time/us, time/ms, time/s, count"),
              std::string::npos)
        << e.what();
  }
}

TEST(hatchet_tree_view_seed, instrumentation_tree_defaults_to_cycles) {
  const fs::path seed = fs::path(AORTA_FIXTURES_DIR) / "hatchet" / "instrumentation_seed.hatchet";
  std::ostringstream cycles;
  render_hatchet_tree(seed, "", cycles);
  EXPECT_EQ(cycles.str(), "cycles of " + seed.string() + "\n" +
                              "8615068 ROOT\n"
                              "└─ 8615068 unbalanced_kernel\n"
                              "   ├─ 8463028 expensive\n"
                              "   └─ 152040 cheap\n");
  std::ostringstream normalized;
  render_hatchet_tree(seed, "normalized_cycles", normalized);
  const std::string text = normalized.str();
  const std::string head = "normalized_cycles of " + seed.string() + "\n";
  ASSERT_EQ(text.substr(0, head.size()), head);
  EXPECT_EQ(text.substr(head.size(), text.find('\n', head.size()) - head.size()), "33652.600 ROOT");
}

// The deepest call stack the frame tree admits views without running the thread's stack out: the
// printer recursed once per level and a 30,000-frame stack (290 KB) ended in SIGSEGV.
TEST(hatchet_tree_view_deep, call_stack_at_the_frame_limit_prints_every_level) {
  const std::size_t frames = detail::frame_tree_max_entries - 16;
  const fs::path file =
      fs::temp_directory_path() /
      ("aorta_tree_view_deep_" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) +
       ".chrome_trace");
  {
    std::ofstream trace(file);
    trace << R"j({"traceEvents":[{"ph":"X","cat":"kernel","name":"deepest","ts":0,"dur":7,)j"
          << R"j("args":{"call_stack":["ROOT")j";
    for (std::size_t i = 0; i < frames; ++i) trace << ",\"f" << i << '"';
    trace << R"j(,"deepest"]}}]})j";
  }
  std::ostringstream out;
  render_hatchet_tree(file, "time/ns", out);
  fs::remove(file);
  const std::string text = out.str();
  EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), static_cast<std::ptrdiff_t>(frames + 3));
  // A chrome trace's "dur" is in microseconds.
  const std::string last = "[depth " + std::to_string(frames + 1) + "] └─ 7000 deepest\n";
  ASSERT_GE(text.size(), last.size());
  EXPECT_EQ(text.substr(text.size() - last.size()), last);
}

TEST(hatchet_tree_view_seed, malformed_file_is_a_capture_error) {
  EXPECT_THROW(render_hatchet_tree(fs::path(AORTA_FIXTURES_DIR) / "hatchet" / "truncated.hatchet",
                                   "", std::cout),
               capture_error);
}

}  // namespace
}  // namespace aorta
