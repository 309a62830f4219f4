// A JSON document aorta writes: stamped with its format's name and version (aorta/schema.hpp),
// printed the one way every output file is printed, and put in place atomically.
#pragma once

#include "aorta/schema.hpp"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <string>

namespace aorta::detail {

// `document` (an object) with "schema" and "schema_version" set from `schema`.
[[nodiscard]] nlohmann::json stamped(nlohmann::json document, const output_schema& schema);

// The text of a written document: two-space indent and a final newline, so files diff cleanly.
[[nodiscard]] std::string document_text(const nlohmann::json& document);

// Writes stamped(document, schema) to `path` atomically (write_file_atomically). Throws
// setup_error naming the path.
void write_json_document(const std::filesystem::path& path, nlohmann::json document,
                         const output_schema& schema);

}  // namespace aorta::detail
