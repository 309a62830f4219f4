// Proton's format: hatchet_msgpack (<name>.hatchet_msgpack): the tree document of data: tree as
// MessagePack (Triton's third_party/proton/csrc/lib/Data/TreeData.cpp, toMsgPack), or for
// data: trace one MessagePack string holding the chrome trace text (TraceData.cpp, toMsgPack).
#pragma once

#include <cstddef>
#include <filesystem>
#include <string>

namespace aorta::detail {

// MessagePack is decoded whole (nlohmann::json::from_msgpack), so files above this are refused
// with the fix (write format: hatchet, which is streamed) instead of exhausting memory.
inline constexpr std::size_t proton_msgpack_max_bytes = std::size_t{256} << 20;

struct proton_msgpack_document {
  bool is_trace = false;  // true: `json` is chrome trace text; false: a hatchet tree as JSON text
  std::string json;
};

// Throws capture_error naming the file for an unreadable, oversized, truncated or non-Proton file.
[[nodiscard]] proton_msgpack_document read_proton_msgpack(const std::filesystem::path& file);

// The same for bytes already in memory (fuzzing, tests); `display_name` goes into errors.
[[nodiscard]] proton_msgpack_document decode_proton_msgpack(const std::string& bytes,
                                                            const std::string& display_name);

}  // namespace aorta::detail
