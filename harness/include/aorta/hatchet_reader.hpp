// Reads Proton's hatchet output (data: tree) into the neutral capture model. The reader streams:
// memory grows with tree depth and the number of distinct kernel names, never with file size.
#pragma once

#include "aorta/capture.hpp"

#include <filesystem>
#include <optional>
#include <string>

namespace aorta {

struct hatchet_read_options {
  // The recipe's proton backend: auto | cupti | roctracer | rocprofiler | instrumentation.
  std::string requested_backend = "auto";
  // Triton's version where known; on HIP it decides roctracer (< 3.8.0) or rocprofiler.
  std::optional<std::string> triton_version;
};

// Reads one .hatchet file, or every file under a directory whose name contains ".hatchet"
// (periodic flushing writes proton.part_0.hatchet, ...), in path order, summing their data.
// Only leaf frames contribute: kernels from "time (<unit>)" and "count", intra-kernel scopes from
// "cycles" and "normalized_cycles". A missing path gives an empty capture with a note.
// Throws capture_error naming the file and byte offset of malformed or truncated JSON.
[[nodiscard]] capture read_hatchet_capture(const std::filesystem::path& dir_or_file,
                                           const hatchet_read_options& options = {});

}  // namespace aorta
