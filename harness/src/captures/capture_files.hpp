// Finding a profiler's files under its output directory, the same way for every reader.
#pragma once

#include <filesystem>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace aorta::detail {

// Every regular file below `dir` (recursively) whose name `wanted` accepts, in path order.
// Symlinks are neither followed nor read: a capture is what the profiler wrote in this directory,
// and a payload that can write there must not be able to point a reader anywhere else (the
// original's guard 16). Throws capture_error naming `dir` and `profiler` when it, or any directory
// below it, cannot be listed: a capture missing a part is never read as whole.
[[nodiscard]] std::vector<std::filesystem::path>
list_capture_files(const std::filesystem::path& dir,
                   const std::function<bool(const std::string&)>& wanted,
                   std::string_view profiler);

// What a reader is pointed at: one file, or a directory searched with list_capture_files.
struct capture_inputs {
  std::filesystem::path artifact_dir;        // absolute: the directory, or the file's parent
  std::vector<std::filesystem::path> files;  // what to read
  std::vector<std::string> notes;            // nothing there, or nothing that matched
};
[[nodiscard]] capture_inputs
find_capture_inputs(const std::filesystem::path& dir_or_file,
                    const std::function<bool(const std::string&)>& wanted,
                    std::string_view profiler, std::string_view wanted_description);

}  // namespace aorta::detail
