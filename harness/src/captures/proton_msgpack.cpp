#include "captures/proton_msgpack.hpp"

#include "aorta/error.hpp"

#include <fstream>
#include <iterator>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace aorta::detail {

proton_msgpack_document decode_proton_msgpack(const std::string& bytes,
                                              const std::string& display_name) {
  nlohmann::json value;
  try {
    value = nlohmann::json::from_msgpack(bytes);
  } catch (const nlohmann::json::exception& e) {
    throw capture_error(
        fmt::format("{}: not valid MessagePack ({}); the file is truncated or is not Proton's "
                    "hatchet_msgpack output",
                    display_name, e.what()));
  }
  proton_msgpack_document doc;
  if (value.is_string()) {
    doc.is_trace = true;
    doc.json = value.get<std::string>();
    return doc;
  }
  if (!value.is_array() || value.empty() || !value.front().is_object()) {
    throw capture_error(fmt::format(
        "{}: valid MessagePack but not a Proton document (expected an array [root node, device "
        "table] or a string holding a chrome trace, found {})",
        display_name, value.type_name()));
  }
  // NaN and infinity have no JSON spelling; dump() writes them as null, which the tree reader
  // then reports as an unusable metric instead of crashing. Invalid UTF-8 in a name becomes
  // U+FFFD rather than an exception (found by fuzzing).
  doc.json = value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  return doc;
}

proton_msgpack_document read_proton_msgpack(const std::filesystem::path& file) {
  std::error_code ec;
  const auto size = std::filesystem::file_size(file, ec);
  if (ec) throw capture_error(fmt::format("{}: cannot open: {}", file.string(), ec.message()));
  if (size > proton_msgpack_max_bytes)
    throw capture_error(fmt::format(
        "{}: {} bytes of MessagePack is more than aorta decodes in memory ({} MiB); write "
        "proton's format: hatchet (JSON, read as a stream) for captures this large",
        file.string(), size, proton_msgpack_max_bytes >> 20));
  std::ifstream in(file, std::ios::binary);
  if (!in) throw capture_error(fmt::format("{}: cannot open for reading", file.string()));
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  return decode_proton_msgpack(bytes, file.string());
}

}  // namespace aorta::detail
