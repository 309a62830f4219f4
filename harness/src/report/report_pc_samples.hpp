// report.html's PC-sample chart: per sampled kernel (the result's `<c>_pc_*` metrics,
// metrics/pc_sample_metrics.hpp), one bar per recorded line, as long as the line's share of the
// kernel's samples and split by its largest stall reasons, each reason one colour in every bar.
#pragma once

#include "aorta/metrics.hpp"

#include <string>

namespace aorta::detail {

// The charts' HTML (a heading, a legend and an inline SVG per kernel); "" without PC samples.
[[nodiscard]] std::string pc_sample_charts_html(const metric_set& metrics);

}  // namespace aorta::detail
