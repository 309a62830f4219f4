// aorta_golden_schema_check GOLDEN NAME DOCUMENT|@LIST...: compares the key/type skeleton of the
// documents (files aorta wrote in tests/golden/produce.cmake) with the golden file, printing one
// line per difference. With AORTA_UPDATE_GOLDEN=1 it rewrites the golden's body from the
// documents instead, keeping its '#' and '@' lines. Exit 0 match/updated, 1 differs, 2 bad input.
#include "schema_skeleton.hpp"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

namespace {

constexpr std::string_view regenerate = "AORTA_UPDATE_GOLDEN=1 ctest --preset ci -R golden";

std::string read_text(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw std::runtime_error(fmt::format("cannot read {}", file.string()));
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

std::vector<std::string> default_header(const std::string& name) {
  return {
      fmt::format("# Golden schema of {}: every key path with the JSON types that real aorta runs", name),
      "# wrote there (tests/golden/produce.cmake). After a deliberate change (and a schema_version",
      "# bump in harness/include/aorta/schema.hpp where a key is renamed, removed or retyped):",
      fmt::format("#   {}", regenerate),
      "# then review `git diff tests/golden`. '@' lines are hand-written and kept on regeneration:",
      "#   @map PATH        free-form keys (metric, kernel, variable names); members share PATH.*",
      "#   @optional PATH   the key may be absent from a correct file",
      "#   @types PATH T|T  types PATH may also have that these CPU runs cannot show",
  };
}

bool updating() {
  const char* value = std::getenv("AORTA_UPDATE_GOLDEN");
  return value != nullptr && *value != '\0' && std::string_view(value) != "0";
}

int run(int argc, char** argv) {
  if (argc < 4) {
    fmt::print(std::cerr, "usage: {} GOLDEN NAME DOCUMENT|@LIST_FILE...\n", argv[0]);
    return 2;
  }
  const std::filesystem::path golden_path = argv[1];
  const std::string name = argv[2];
  aorta::golden::golden_file golden;
  if (std::filesystem::exists(golden_path)) {
    golden = aorta::golden::parse_golden(read_text(golden_path));
  } else if (!updating()) {
    fmt::print(std::cerr, "{} does not exist; create it with\n  {}\n", golden_path.string(),
               regenerate);
    return 1;
  } else {
    golden.header = default_header(name);
  }
  std::vector<std::string> documents;
  for (int i = 3; i < argc; ++i) {
    const std::string argument = argv[i];
    if (!argument.starts_with('@')) {
      documents.push_back(argument);
      continue;
    }
    std::istringstream listed(read_text(argument.substr(1)));
    for (std::string line; std::getline(listed, line);) {
      if (!line.empty()) documents.push_back(line);
    }
  }
  if (documents.empty()) throw std::runtime_error("no document to check (an empty list?)");
  aorta::golden::skeleton actual;
  for (const auto& document : documents) {
    try {
      aorta::golden::add_document(actual, nlohmann::json::parse(read_text(document)),
                                  golden.rules);
    } catch (const std::exception& failure) {
      throw std::runtime_error(fmt::format("{}: {}", document, failure.what()));
    }
  }
  if (updating()) {
    std::ofstream(golden_path, std::ios::binary | std::ios::trunc)
        << aorta::golden::render_golden(golden.header, actual);
    fmt::print("updated {} from {} document(s) (AORTA_UPDATE_GOLDEN is set)\n",
               golden_path.string(), documents.size());
    return 0;
  }
  const auto found = aorta::golden::differences(golden, actual);
  if (found.empty()) {
    fmt::print("{}: {} key paths match {} ({} document(s))\n", name, actual.types.size(),
               golden_path.filename().string(), documents.size());
    return 0;
  }
  fmt::print("{} no longer matches its golden schema {}:\n", name, golden_path.string());
  for (const auto& line : found) fmt::print("  {}\n", line);
  fmt::print("A consumer reading {} by these keys would break. If the change is deliberate, bump\n"
             "its schema_version in harness/include/aorta/schema.hpp where a key was renamed,\n"
             "removed or retyped, then regenerate the golden and review the diff:\n  {}\n",
             name, regenerate);
  return 1;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run(argc, argv);
  } catch (const std::exception& failure) {
    fmt::print(std::cerr, "aorta_golden_schema_check: {}\n", failure.what());
    return 2;
  }
}
