// Reads Nsight Compute CSV output into the neutral capture.
#pragma once

#include "aorta/capture.hpp"

#include <filesystem>

namespace aorta {

// `dir_or_file`: one CSV file, or a directory whose `*.csv` files (recursively) are all read.
// Understands `ncu --csv --page details` (one row per launch, section and metric; columns looked
// up by header name) and `--page raw` (one column per metric, a units row second). Lines before
// the header (==PROF== lines, application output) are skipped. Kernel time is
// gpu__time_duration.sum scaled from its unit to ns; one launch per distinct ID. Every other
// metric is a counter summed per kernel over its launches (capture::counters; ncu_counters.hpp
// says what drops one). An absent path gives an empty capture with a note. Throws capture_error
// when a file cannot be read, a total overflows, ncu wrote an ==ERROR== line before the table, or
// a metric was n/a in every launch (the GPU lacks it).
[[nodiscard]] capture read_ncu_capture(const std::filesystem::path& dir_or_file);

}  // namespace aorta
