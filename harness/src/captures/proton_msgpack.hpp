// Proton's format: hatchet_msgpack (<name>.hatchet_msgpack): the tree document of data: tree as
// MessagePack (Triton's third_party/proton/csrc/lib/Data/TreeData.cpp, toMsgPack), or for
// data: trace one MessagePack string holding the chrome trace text (TraceData.cpp, toMsgPack).
//
// MessagePack is never decoded into a document: it is turned into JSON text as the JSON scanner
// asks for it, so memory is a buffer and the nesting stack, whatever the file holds (a decoded
// DOM of a 60 MB file took more than 3 GB, and destroying a deeply nested one overflowed the
// stack). Nesting is limited as JSON's is (max_json_depth), and every declared length or count
// is checked against the bytes left before it is believed.
#pragma once

#include "captures/json_scanner.hpp"

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace aorta::detail {

// Files above this are refused with the fix (write format: hatchet). Memory no longer grows with
// the size; the limit bounds the time one capture file can take.
inline constexpr std::size_t proton_msgpack_max_bytes = std::size_t{256} << 20;

// Converts one MessagePack document to JSON text, pulled in chunks (a json_chunk_reader).
class msgpack_json_stream {
public:
  // `source` fills up to n bytes and returns 0 at the end; `size` is the total it will give.
  msgpack_json_stream(std::function<std::size_t(char*, std::size_t)> source, std::uint64_t size,
                      std::string display_name);
  msgpack_json_stream(const msgpack_json_stream&) = delete;
  msgpack_json_stream& operator=(const msgpack_json_stream&) = delete;
  ~msgpack_json_stream();

  // True when the document is one string (Proton's data: trace): read() then gives its bytes,
  // which are chrome trace JSON, unchanged. False for a tree document ([root node, devices]).
  // Throws capture_error when the first bytes are neither.
  [[nodiscard]] bool is_trace();

  // Up to `size` bytes of JSON text; 0 at the end. Throws capture_error naming the file and the
  // MessagePack byte for malformed input (truncated, a length beyond the file, nesting too deep).
  std::size_t read(char* data, std::size_t size);

private:
  struct state;
  std::unique_ptr<state> m;
};

// A pull reader over `file` (opened through the bounded input layer, refused above
// proton_msgpack_max_bytes). The stream keeps the file open until it is destroyed.
[[nodiscard]] std::unique_ptr<msgpack_json_stream> open_proton_msgpack(
    const std::filesystem::path& file);

// The same for bytes in memory (fuzzing, tests): `bytes` must outlive the stream.
[[nodiscard]] std::unique_ptr<msgpack_json_stream> proton_msgpack_from_memory(
    const std::string& bytes, const std::string& display_name);

// The whole JSON text of a small document, for tests.
struct proton_msgpack_document {
  bool is_trace = false;  // true: `json` is chrome trace text; false: a hatchet tree as JSON text
  std::string json;
};
[[nodiscard]] proton_msgpack_document decode_proton_msgpack(const std::string& bytes,
                                                            const std::string& display_name);

// Runs `scan` over the JSON text of `stream`; a json_error becomes a capture_error naming the file.
void scan_msgpack_json(msgpack_json_stream& stream, const std::filesystem::path& file,
                       const std::function<void(json_chunk_reader)>& scan);

}  // namespace aorta::detail
