// The one place a collector's output is read: single-process trials, every rank of a multi-rank
// trial, the live capture watch and `aorta check` all come here, so each gets the trial's tool
// versions, the collector's explanation of an empty capture and the failures the capture itself
// reports, the same way.
#pragma once

#include "aorta/capture.hpp"
#include "aorta/check.hpp"
#include "aorta/collector.hpp"

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace aorta::detail {

struct capture_reading {
  std::optional<capture> got;          // nullopt: unreadable, and `error` says why
  std::string error;                   // the reader's capture_error, naming the file
  int interrupted_by = 0;  // the signal that stopped the read (interrupted_error), or 0
  std::optional<std::string> empty;    // the collector's explanation when `got` is empty
  std::optional<std::string> failure;  // a failure the capture itself reports (sanitizer errors)
};

// Whether any of `checks` reads where kernels ran (an under(...) scope on either side of a
// ratio, per rank or not), so the readers must keep the call tree (read_context::frames_needed).
[[nodiscard]] bool checks_need_frames(const std::vector<check_expression>& checks);

// Reads `output` (a trial's collector directory, or a path given to `aorta check`) with the
// request's collector and judges it by that collector's own rules. nullopt for a name that does
// not attach (validated-only collectors) or is unknown.
[[nodiscard]] std::optional<capture_reading> read_one_capture(const collector_request& request,
                                                              const std::filesystem::path& output,
                                                              const tool_version_map& versions,
                                                              bool frames_needed = true);

}  // namespace aorta::detail
