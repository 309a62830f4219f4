// format_metrics_table's text written to a stream a row at a time: as one string, the table of a
// 300 k-dispatch rocpd capture took a third of `aorta check`'s peak memory.
#pragma once

#include "aorta/metrics.hpp"

#include <ostream>

namespace aorta::detail {

// Exactly the bytes of format_metrics_table(metrics).
void write_metrics_table(std::ostream& out, const metric_set& metrics);

}  // namespace aorta::detail
