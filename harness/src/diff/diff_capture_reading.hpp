// Reading the two sides of a diff: a capture file or a trial's directory, by a named reader.
// Shared by `aorta diff` and report.html's flame graph of a cells run.
#pragma once

#include "aorta/capture.hpp"

#include <string>

namespace aorta::detail {

// The capture at `path` (a file, a collector's directory or a trial's directory) read by the
// collector `reader`. Throws usage_error for a reader that reads no files, capture_error with the
// reader's reason when the read fails or finds nothing.
[[nodiscard]] capture read_capture_as(const std::string& path, const std::string& reader);

}  // namespace aorta::detail
