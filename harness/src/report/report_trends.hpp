// The trend charts of report.html (`aorta report DIR --history STORE`, docs/history.md,
// "Trends in report.html"): per series of the report's tests, one point per commit (median and
// spread of its trials), the change-point segments with their deltas, each segment's noise band
// and the window a history baseline would take. The data travel as one compact JSON block that a
// small inline script draws, so 1,000 commits of 50 quantities stay under 2 MB.
#pragma once

#include "history/saved_detector.hpp"
#include "report/report_text_sink.hpp"

#include <cstddef>
#include <string>
#include <vector>

namespace aorta::detail {

struct report_model;

struct trend_data {
  std::string store;  // as messages show it
  std::size_t series = 0;
  std::size_t points = 0;
  std::string json;                 // {"c":[commits],"s":[series...]}, docs/history.md
  std::vector<std::string> titles;  // per series: "test  quantity (unit)  card X"
  detector_state_use detector;

  // "trends: 3 series, 180 points of STORE; change-point segments: 9 reused, 2 tested", with the
  // reason when the detector's state could not be saved.
  [[nodiscard]] std::string summary_line() const;
};

// The series of `tests` in the store, analysed with the detector's defaults and the state an
// earlier pass saved (saved back when it changed).
[[nodiscard]] trend_data collect_trends(const std::string& store,
                                        const std::vector<std::string>& tests);

// The "Trends" section; nothing when the report was not asked for them.
void html_trends_section(const report_model& model, text_sink& out);

}  // namespace aorta::detail
