// Telling a Proton chrome trace from a hatchet tree by content, for files whose name does not say
// (which profiler wrote a file is each collector's recognises(): collectors/format_detection.hpp).
#pragma once

#include <filesystem>

namespace aorta::detail {

// A JSON file whose first bytes hold "traceEvents": Proton's data: trace output, whatever its name.
[[nodiscard]] bool looks_like_chrome_trace(const std::filesystem::path& file);

}  // namespace aorta::detail
