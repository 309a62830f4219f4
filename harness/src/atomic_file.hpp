// Whole-file writes that a reader never sees half done.
#pragma once

#include <filesystem>
#include <functional>
#include <ostream>
#include <string_view>

namespace aorta::detail {

// Writes `content` to a temporary file next to `path` (created exclusively, never through a
// symlink), then renames it over `path`. Throws setup_error naming the path and the system's
// reason.
void write_file_atomically(const std::filesystem::path& path, std::string_view content);

// The same, with the content streamed by `write` into the temporary file as it is made, so a large
// document (result.json of 10^5 kernels) is never held whole. A failed write throws the same way.
void write_file_atomically(const std::filesystem::path& path,
                           const std::function<void(std::ostream&)>& write);

}  // namespace aorta::detail
