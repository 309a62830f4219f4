// What a directory given to `aorta check` holds: one capture, or several that summing would mix
// up (the trials of a sweep, the tests of a CTest results root, copies of one file).
#pragma once

#include <cstddef>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

namespace aorta::cli {

struct capture_scope {
  // The distinct trial_<n> directories (relative to the surveyed directory) that hold captures.
  std::vector<std::filesystem::path> trials;
  // Pairs of byte-identical capture files (relative), the first of each group with each other.
  std::vector<std::pair<std::filesystem::path, std::filesystem::path>> copies;
  std::size_t capture_files = 0;
};

// Surveys the regular files below `dir` (symlinks not followed, at most a few thousand) that
// hold `collector`'s format.
[[nodiscard]] capture_scope survey_capture_scope(const std::filesystem::path& dir,
                                                 const std::string& collector);

// Throws usage_error (64) naming them when `path` is a directory holding the captures of several
// trials or tests, or two identical copies of one capture file, unless `aggregate`; then it
// prints a note saying what is summed.
void require_one_capture(const std::string& path, const std::string& collector, bool aggregate);

}  // namespace aorta::cli
