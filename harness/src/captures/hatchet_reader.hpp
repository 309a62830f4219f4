// Reads Proton's output (data: tree or trace, JSON or MessagePack) into the neutral capture model.
// JSON is streamed: memory grows with tree depth, the distinct kernel names and (only when
// keep_frame_tree is set) the distinct frame paths above kernels, not with the bytes of the file.
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
  // Whether to keep the call tree above the kernels (capture::frames and placements). Only
  // under(...) checks and `aorta view` read it; without it memory stays flat however many call
  // paths the file holds, and only the totals, scopes, devices and text metrics are read.
  bool keep_frame_tree = true;
};

// Reads one Proton output file, or every file of one Proton format under a directory, summed:
// *.hatchet* (JSON tree, streamed; periodic flushing writes proton.part_<phase>.hatchet), else
// *.hatchet_msgpack (the tree, or a chrome trace string, as MessagePack), else *.chrome_trace
// (data: trace, streamed). In a tree only leaf frames contribute: kernels from "time (<unit>)"
// and "count", intra-kernel scopes from "cycles" and "normalized_cycles"; the frames above the
// kernels go to capture::frames/placements. A missing path gives an empty capture with a note.
// Throws capture_error naming the file and byte offset of malformed or truncated input.
[[nodiscard]] capture read_hatchet_capture(const std::filesystem::path& dir_or_file,
                                           const hatchet_read_options& options = {});

}  // namespace aorta
