// report.html's trends (docs/history.md, "Trends in report.html"): the page of a store of 1,000
// commits x 50 quantities x 3 trials stays under 2 MB with every point in it, and each series'
// change, segments and baseline window are where the store's data put them.
#include "aorta/report.hpp"
#include "history/history_store.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

namespace aorta::detail {
namespace {
namespace fs = std::filesystem;

constexpr int commits = 1000;
constexpr int quantities = 50;
constexpr int step_at = 600;  // the first commit after each series' +5% step

fs::path fresh_dir(const std::string& name) {
  const fs::path dir = fs::temp_directory_path() / ("aorta-trends-" + name);
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

std::string read_text(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// Runs of test `t`: 1% noise around 1.0 (times 1 + q/100 per quantity), +5% from step_at on.
std::vector<history_run> synthetic_runs() {
  std::mt19937_64 random(41);
  std::normal_distribution<double> noise(0.0, 0.01);
  std::vector<history_run> runs;
  for (int c = 0; c < commits; ++c) {
    history_run run;
    run.run_key = "run" + std::to_string(c);
    run.test = "t";
    run.commit = "commit" + std::to_string(c);
    run.branch = "main";
    run.time_unix = 1'700'000'000 + c * 3600;
    run.time = "2026-01-01T00:00:00Z";
    for (int trial = 0; trial < 3; ++trial) {
      history_trial measured{trial, "pass", "2026-01-01T00:00:00Z", {}};
      for (int q = 0; q < quantities; ++q) {
        const double level = (1.0 + q / 100.0) * (c >= step_at ? 1.05 : 1.0);
        measured.samples.push_back({"q" + std::to_string(q) + "_ms", "ms",
                                    level * (1.0 + noise(random))});
      }
      run.trials.push_back(std::move(measured));
    }
    runs.push_back(std::move(run));
  }
  return runs;
}

TEST(ReportTrends, ThousandCommitsOfFiftyQuantitiesStayUnderTwoMegabytes) {
  const fs::path dir = fresh_dir("size");
  const fs::path store = dir / "history.sqlite";
  open_history_store(store.string(), store_access::read_write)->add_runs(synthetic_runs());
  const fs::path results = dir / "results";
  fs::create_directories(results / "t" / "trial_0");
  std::ofstream(results / "t" / "trial_0" / "result.json")
      << R"({"schema":"aorta-result","schema_version":1,"trial_index":0,"verdict":"pass",)"
      << R"("started_at":"2026-12-01T00:00:00Z","wall_seconds":0.0,"versions":{},"metrics":{}})";
  static_cast<void>(write_aggregate_report(results, store.string()));

  const std::string page = read_text(results / "report.html");
  EXPECT_LE(page.size(), 2u * 1024u * 1024u) << "report.html is " << page.size() << " bytes";
  const std::string open = "<script type=\"application/json\" id=\"aorta-trends\">";
  const auto begin = page.find(open);
  ASSERT_NE(begin, std::string::npos);
  const auto end = page.find("</script>", begin);
  const auto data = nlohmann::json::parse(page.substr(begin + open.size(),
                                                      end - begin - open.size()));
  ASSERT_EQ(data.at("s").size(), static_cast<std::size_t>(quantities));
  ASSERT_EQ(data.at("c").size(), static_cast<std::size_t>(commits));
  for (const auto& series : data.at("s")) {
    ASSERT_EQ(series.at("p").size(), static_cast<std::size_t>(commits));
    bool step_found = false;
    for (const auto& change : series.at("x")) {
      const int at = change.at(0).get<int>();
      step_found = step_found || (std::abs(at - step_at) <= 2 && change.at(1).get<double>() > 4.0 &&
                                  change.at(1).get<double>() < 6.0);
    }
    EXPECT_TRUE(step_found) << series.at("q") << ": no +5% change near commit " << step_at;
    // Segments tile the points; the baseline window is the newest 20 since the last change.
    EXPECT_EQ(series.at("g").front().at(0), 0);
    EXPECT_EQ(series.at("g").back().at(1), commits - 1);
    EXPECT_EQ(series.at("b"), nlohmann::json::array({commits - 20, commits - 1}));
  }
}

}  // namespace
}  // namespace aorta::detail
