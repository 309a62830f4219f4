// The layer table of docs/architecture.md ("## Layers") is the rule every include follows: a file
// of harness/src/ includes files of its own row or the rows below it, never one above. The test
// reads the table from the document and every `#include "..."` of harness/src/, so the document
// and the code cannot drift apart. Public headers (`aorta/...`) form one folder and are left out
// (the document says why). A collector's own folder is sealed: nothing outside
// harness/src/collectors/<name>/ includes its headers.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;

std::string read_text(const fs::path& file) {
  std::ifstream in(file);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// folder or file stem ("metrics", "error", "process") -> its row, counted from the bottom.
std::map<std::string, std::size_t> layer_rows() {
  const std::string doc = read_text(fs::path(AORTA_SOURCE_DIR) / "docs/architecture.md");
  const auto start = doc.find("\n## Layers");
  EXPECT_NE(start, std::string::npos) << "docs/architecture.md has no '## Layers' section";
  std::map<std::string, std::size_t> rows;
  if (start == std::string::npos) return rows;
  std::istringstream lines(doc.substr(start + 1));
  std::string line;
  std::getline(lines, line);  // the heading
  const std::regex cell_name("`([^`]+)`");
  std::size_t row = 0;
  while (std::getline(lines, line) && !line.starts_with("## ")) {
    if (!line.starts_with("| ") || line.starts_with("| layer")) continue;
    const auto first = line.find('|', 1);
    const auto second = line.find('|', first + 1);
    const std::string names = line.substr(first + 1, second - first - 1);
    for (std::sregex_iterator match(names.begin(), names.end(), cell_name), end; match != end;
         ++match) {
      std::string name = (*match)[1].str();
      if (name.ends_with("/")) name.pop_back();
      if (name == "harness/include/aorta") name = "aorta";
      rows[name] = row;
    }
    ++row;
  }
  return rows;
}

// "metrics/metrics.cpp" -> "metrics"; "json_text.hpp" -> "json_text".
std::string unit_of(const std::string& path) {
  const auto slash = path.find('/');
  if (slash != std::string::npos) return path.substr(0, slash);
  return fs::path(path).stem().string();
}

struct include_line {
  std::string file;      // relative to harness/src
  std::string included;  // as written
};

std::vector<include_line> source_includes() {
  const fs::path src = fs::path(AORTA_SOURCE_DIR) / "harness/src";
  const std::regex include_pattern("#include \"([^\"]+)\"");
  std::vector<include_line> found;
  for (const auto& entry : fs::recursive_directory_iterator(src)) {
    const auto extension = entry.path().extension();
    if (!entry.is_regular_file() || (extension != ".cpp" && extension != ".hpp")) continue;
    const std::string file = fs::relative(entry.path(), src).generic_string();
    const std::string text = read_text(entry.path());
    for (std::sregex_iterator match(text.begin(), text.end(), include_pattern), end;
         match != end; ++match) {
      found.push_back({file, (*match)[1].str()});
    }
  }
  return found;
}

TEST(LayerTable, EveryIncludeStaysInItsRowOrGoesDown) {
  const auto rows = layer_rows();
  ASSERT_GE(rows.size(), 10U) << "the layer table lost its rows";
  std::size_t checked = 0;
  for (const auto& [file, included] : source_includes()) {
    if (included.starts_with("aorta/")) continue;
    const auto from = rows.find(unit_of(file));
    const auto to = rows.find(unit_of(included));
    EXPECT_NE(from, rows.end()) << "harness/src/" << file
                                << " is in no row of the layer table of docs/architecture.md; "
                                   "add its folder or file there";
    EXPECT_NE(to, rows.end()) << "harness/src/" << included << " (included by " << file
                              << ") is in no row of the layer table of docs/architecture.md";
    if (from == rows.end() || to == rows.end()) continue;
    ++checked;
    EXPECT_LE(to->second, from->second)
        << "harness/src/" << file << " (layer " << from->first << ") includes " << included
        << " (layer " << to->first << "), a row above it: move the code down, or the include "
        << "up (docs/architecture.md, Layers)";
  }
  EXPECT_GT(checked, 500U) << "too few includes were checked: did the sources move?";
}

// Seeded failure: an include upwards is caught (the rule above is not vacuous).
TEST(LayerTable, AnUpwardIncludeWouldBeCaught) {
  const auto rows = layer_rows();
  ASSERT_TRUE(rows.contains("metrics") && rows.contains("sweep") && rows.contains("error"));
  EXPECT_LT(rows.at("metrics"), rows.at("sweep"));
  EXPECT_LT(rows.at("error"), rows.at("metrics"));
}

TEST(LayerTable, NothingOutsideACollectorsFolderIncludesItsHeaders) {
  const std::regex own_folder("^collectors/([a-z_]+)/");
  for (const auto& [file, included] : source_includes()) {
    std::smatch folder;
    if (!std::regex_search(included, folder, own_folder)) continue;
    EXPECT_TRUE(file.starts_with("collectors/" + folder[1].str() + "/"))
        << "harness/src/" << file << " includes " << included
        << ": a collector's folder is sealed; offer what is needed through the collector "
           "interface (aorta/collector.hpp) or move it below collectors/";
  }
}

}  // namespace
