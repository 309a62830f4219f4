// The sanitizer collector: NVIDIA compute-sanitizer (memcheck, racecheck, initcheck, synccheck)
// around the payload, its text report read into findings. docs/collectors.md (sanitizer).
#pragma once

#include "aorta/capture.hpp"
#include "aorta/collector.hpp"
#include "collectors/sanitizer/sanitizer_options.hpp"

#include <map>
#include <memory>
#include <string>

namespace aorta {

// The registry's one entry for it.
[[nodiscard]] std::unique_ptr<const collector_base> make_sanitizer_collector();

// Why a sanitizer capture came back empty (no report was written), with causes and fixes.
[[nodiscard]] std::string explain_empty_sanitizer_capture(const capture& empty,
                                                          const sanitizer_options& options);

// "compute_sanitizer" -> "2025.3.1.0" from `compute-sanitizer --version`, and "gpu" -> "NVIDIA
// H200, 580.159.04" from nvidia-smi, as far as they can be run here; never throws.
[[nodiscard]] std::map<std::string, std::string> probe_sanitizer_versions(const env_map& env);

}  // namespace aorta
