// Internals of the hatchet reader that tests drive directly.
#pragma once

#include "captures/hatchet_reader.hpp"
#include "captures/json_file_scan.hpp"
#include "captures/json_scanner.hpp"

#include <cstddef>
#include <filesystem>
#include <functional>
#include <istream>
#include <string>

namespace aorta::detail {

// Reads one hatchet document from `in` through a buffer of `chunk_size` bytes (tests use tiny
// sizes to put tokens across chunk boundaries). Errors name `display_name` and the byte offset.
[[nodiscard]] capture read_hatchet_stream(std::istream& in, std::size_t chunk_size,
                                          const hatchet_read_options& options = {},
                                          const std::string& display_name = "<stream>");

// The backend a capture shows, by the rules of hatchet_read_options.
[[nodiscard]] std::string resolve_proton_backend(const hatchet_read_options& options,
                                                 bool saw_scopes, bool saw_cuda, bool saw_hip);

}  // namespace aorta::detail
