// Reads compute-sanitizer's text report (`--log-file`) into the neutral capture: each error as a
// finding (kind, kernel, source location, thread/block/address), and the error total of the
// tool's summary lines (or of the listed errors, when larger) as capture::reported_errors.
#pragma once

#include "aorta/capture.hpp"

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace aorta {

// One log, parsed.
struct sanitizer_report {
  std::vector<finding> findings;  // identical reports merged, in first-seen order
  std::uint64_t errors = 0;       // the summary lines' error totals, summed
  std::vector<std::string> notes;
};

// Parses the text of one report. `file` only names it in messages. Throws capture_error naming
// the file and the fix when the text is not a compute-sanitizer report (no `========= COMPUTE-
// SANITIZER` banner: an XML report, cuda-memcheck's format, anything else), when it is truncated
// (empty, or no ERROR SUMMARY / RACECHECK SUMMARY line after its last error) or when a summary line
// is not understood (a format this reader does not know).
[[nodiscard]] sanitizer_report parse_sanitizer_log(std::string_view text,
                                                   const std::filesystem::path& file);

// `dir_or_file`: one report, or a directory whose `*.log` files (recursively) are all read. An
// absent path or a directory without a log gives an empty capture with a note. Throws
// capture_error as parse_sanitizer_log does, or when a file cannot be read.
[[nodiscard]] capture read_sanitizer_capture(const std::filesystem::path& dir_or_file);

}  // namespace aorta
