// Which profiler wrote a file or directory, asked of the collectors themselves (each one's
// recognises()), so `aorta check` can pick the reader and `aorta view` can say "not a hatchet"
// instead of failing deep inside a parser. There is no second list of formats.
#pragma once

#include "aorta/collector.hpp"

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace aorta::detail {

// The name and first bytes of `file` (a FIFO or device is not opened: its head stays empty).
[[nodiscard]] file_sample sample_file(const std::filesystem::path& file);

// The collector whose output `file` is (the first in wrap order that recognises it), or nullptr.
[[nodiscard]] const collector_base* recognise_capture_file(const std::filesystem::path& file);

// The collectors whose files a path holds: the file's own format, or every format found among
// the regular files below a directory (symlinks not followed; at most a few thousand looked at).
// Sorted, without duplicates.
[[nodiscard]] std::vector<std::string> detect_capture_formats(const std::filesystem::path& path);

// "a Proton capture (...)", "an ncu CSV", ...: how messages name a collector's files.
[[nodiscard]] std::string describe_capture_format(const std::string& collector);

}  // namespace aorta::detail
