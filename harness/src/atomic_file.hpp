// Whole-file writes that a reader never sees half done.
#pragma once

#include <filesystem>
#include <string_view>

namespace aorta::detail {

// Writes `content` to a temporary file next to `path` (created exclusively, never through a
// symlink), then renames it over `path`. Throws setup_error naming the path and the system's
// reason.
void write_file_atomically(const std::filesystem::path& path, std::string_view content);

}  // namespace aorta::detail
