#include "json_document.hpp"

#include "atomic_file.hpp"
#include "json_text.hpp"

namespace aorta::detail {

nlohmann::json stamped(nlohmann::json document, const output_schema& schema) {
  document["schema"] = std::string(schema.name);
  document["schema_version"] = schema.version;
  return document;
}

std::string document_text(const nlohmann::json& document) {
  return dump_json(document, 2) + "\n";
}

void write_json_document(const std::filesystem::path& path, nlohmann::json document,
                         const output_schema& schema) {
  write_file_atomically(path, document_text(stamped(std::move(document), schema)));
}

}  // namespace aorta::detail
