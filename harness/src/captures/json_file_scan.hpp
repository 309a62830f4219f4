// Scanning a JSON file in chunks through the bounded input layer, shared by the hatchet and Chrome
// trace readers (and `aorta view`), so neither reader depends on the other.
#pragma once

#include "captures/json_scanner.hpp"

#include <filesystem>
#include <functional>
#include <string>

namespace aorta::detail {

// Opens `file` and calls `scan` with a chunk reader for it. A json_error from the scan becomes a
// capture_error naming the file, the byte offset and the line.
void scan_hatchet_file(const std::filesystem::path& file,
                       const std::function<void(json_chunk_reader)>& scan);

// Reads JSON text held in memory (a decoded hatchet_msgpack file); `text` must outlive it.
[[nodiscard]] json_chunk_reader memory_reader(const std::string& text);

}  // namespace aorta::detail
