// The registry is the one list of collectors, and each collector is one folder: every folder under
// harness/src/collectors/ defines collectors that are registered, and the registry holds nothing
// that no folder defines. An attaching collector's folder carries its name.
#include "aorta/collector.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>

namespace aorta {
namespace {

namespace fs = std::filesystem;

// collector name -> the folder whose sources define `const collector_base& <name>_collector()`.
std::multimap<std::string, std::string> defined_in_folders() {
  const std::regex definition(R"(const collector_base& (\w+)_collector\(\) \{)");
  std::multimap<std::string, std::string> defined;
  const fs::path root = fs::path(AORTA_SOURCE_DIR) / "harness/src/collectors";
  for (const auto& folder : fs::directory_iterator(root)) {
    if (!folder.is_directory()) continue;
    for (const auto& file : fs::directory_iterator(folder.path())) {
      if (file.path().extension() != ".cpp") continue;
      std::ifstream in(file.path());
      std::stringstream text;
      text << in.rdbuf();
      const std::string source = text.str();
      for (std::sregex_iterator match(source.begin(), source.end(), definition), end;
           match != end; ++match) {
        defined.emplace((*match)[1].str(), folder.path().filename().string());
      }
    }
  }
  return defined;
}

TEST(registry_folders, every_folder_defines_a_registered_collector_and_nothing_else_is_registered) {
  const auto defined = defined_in_folders();
  std::set<std::string> folders_with_collectors;
  std::set<std::string> names;
  for (const auto& [name, folder] : defined) {
    EXPECT_EQ(defined.count(name), 1U) << name << " is defined in more than one folder";
    EXPECT_NE(find_collector(name), nullptr)
        << "harness/src/collectors/" << folder << " defines " << name
        << "_collector() but the registry (collectors/registry.cpp) does not list it";
    folders_with_collectors.insert(folder);
    names.insert(name);
  }
  const fs::path root = fs::path(AORTA_SOURCE_DIR) / "harness/src/collectors";
  for (const auto& folder : fs::directory_iterator(root)) {
    if (!folder.is_directory()) continue;
    EXPECT_TRUE(folders_with_collectors.contains(folder.path().filename().string()))
        << folder.path() << " is a collector folder that defines no collector";
  }
  for (const auto& name : collector_names()) {
    EXPECT_TRUE(names.contains(name)) << "the registry lists " << name
                                      << " but no collector folder defines it";
  }
}

TEST(registry_folders, an_attaching_collector_lives_in_the_folder_of_its_name) {
  const auto defined = defined_in_folders();
  for (const auto* collector : collectors()) {
    if (!collector->attaches()) continue;
    const auto where = defined.find(std::string(collector->name()));
    ASSERT_NE(where, defined.end()) << collector->name();
    EXPECT_EQ(where->second, collector->name());
  }
}

// Cells give the paired test's rounds only to collectors whose captures hold times; exact counts
// (callgrind's Ir, compute-sanitizer's errors) need none (sweep/cell_sweep.cpp).
TEST(registry_folders, collectors_of_exact_counts_say_they_measure_no_time) {
  for (const char* exact : {"callgrind", "sanitizer"}) {
    ASSERT_NE(find_collector(exact), nullptr) << exact;
    EXPECT_FALSE(find_collector(exact)->measures_time()) << exact;
  }
  for (const char* timed : {"proton", "ncu", "rocprof", "nvbench", "gbench"}) {
    ASSERT_NE(find_collector(timed), nullptr) << timed;
    EXPECT_TRUE(find_collector(timed)->measures_time()) << timed;
  }
}

}  // namespace
}  // namespace aorta
