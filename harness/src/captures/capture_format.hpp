// Which profiler wrote a file or directory, from names and the first bytes of content, so
// `aorta check` can pick the reader and `aorta view` can say "not a hatchet" instead of failing
// deep inside a parser.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace aorta::detail {

// "proton" (a hatchet JSON or MessagePack, or a chrome trace), "ncu" (an ncu CSV), "rocprof" (rocprofv3 CSV/JSON/db) or
// "callgrind" (a callgrind.out file); nullopt when the file looks like none of them.
[[nodiscard]] std::optional<std::string> sniff_capture_file(const std::filesystem::path& file);

// The collectors whose files a path holds: the file's own format, or every format found among
// the regular files below a directory (symlinks not followed; at most a few thousand looked at).
// Sorted, without duplicates.
[[nodiscard]] std::vector<std::string> detect_capture_formats(const std::filesystem::path& path);

// A JSON file whose first bytes hold "traceEvents": Proton's data: trace output, whatever its name.
[[nodiscard]] bool looks_like_chrome_trace(const std::filesystem::path& file);

// "a Proton hatchet", "an ncu CSV", ...: how messages name a format.
[[nodiscard]] std::string describe_capture_format(const std::string& collector);

}  // namespace aorta::detail
