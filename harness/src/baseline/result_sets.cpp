#include "baseline/result_sets.hpp"

#include "aorta/error.hpp"
#include "aorta/schema.hpp"
#include "baseline/baseline_file.hpp"
#include "json_text.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <fstream>
#include <sstream>

namespace aorta::detail {
namespace fs = std::filesystem;
namespace {

nlohmann::json read_json(const fs::path& file) {
  try {
    return read_json_file(file);
  } catch (const json_input_error& e) {
    throw error(exit_code::failed, fmt::format("{} is not valid JSON: {}", file.string(), e.what()));
  } catch (const input_error& e) {
    throw error(exit_code::failed, e.what());
  }
}

bool is_trial_dir(const fs::path& dir) {
  const std::string name = dir.filename().string();
  return name.starts_with("trial_") && name.size() > 6 &&
         name.find_first_not_of("0123456789", 6) == std::string::npos;
}

bool is_baseline_file(const fs::path& file) {
  if (file.extension() != ".json" || file.filename() == "result.json") return false;
  try {
    const auto json = read_json(file);
    // Any other JSON beside the baselines (a "schema" of another type included) is not one.
    const auto schema = json.is_object() ? json.find("schema") : json.end();
    return json.is_object() && schema != json.end() && schema->is_string() &&
           schema->get<std::string>() == schemas::baseline.name;
  } catch (const error&) {
    return false;
  }
}

// Why a path that is neither a regular file nor a directory cannot be read: a FIFO or device
// exists, and saying it does not would send the user looking for a missing file.
std::string what_is_there(const fs::path& path) {
  std::error_code ec;
  switch (fs::status(path, ec).type()) {
    case fs::file_type::not_found: return "does not exist";
    case fs::file_type::fifo: return "is a FIFO (named pipe), not a file or directory aorta reads";
    case fs::file_type::socket: return "is a socket, not a file or directory aorta reads";
    case fs::file_type::character:
    case fs::file_type::block: return "is a device, not a file or directory aorta reads";
    default:
      return ec ? fmt::format("cannot be read ({})", ec.message())
                : "is not a file or directory aorta reads";
  }
}

}  // namespace

std::map<std::string, std::vector<trial_record>> read_result_trees(const fs::path& path) {
  std::vector<fs::path> found;
  std::error_code ec;
  if (fs::is_regular_file(path, ec)) {
    found.push_back(path);
  } else if (fs::is_directory(path, ec)) {
    for (fs::recursive_directory_iterator it(path, fs::directory_options::skip_permission_denied, ec),
         end;
         it != end; it.increment(ec)) {
      if (ec) break;
      if (it->path().filename() == "result.json" && it->is_regular_file()) {
        found.push_back(it->path());
      }
    }
  } else {
    throw error(exit_code::failed,
                fmt::format("{} {} (give a sweep output directory, a CTest aorta-results root "
                            "or a result.json)",
                            path.string(), what_is_there(path)));
  }
  std::sort(found.begin(), found.end());
  std::map<std::string, std::vector<trial_record>> tests;
  for (const auto& file : found) {
    const fs::path trial_dir = file.parent_path();
    const fs::path test_dir = is_trial_dir(trial_dir) ? trial_dir.parent_path() : trial_dir;
    std::string test = fs::absolute(test_dir).lexically_normal().filename().string();
    if (test.empty()) test = fs::absolute(test_dir).lexically_normal().parent_path().filename().string();
    try {
      tests[test].push_back(trial_record_from_json(read_json(file)));
    } catch (const error& e) {
      throw error(exit_code::failed, fmt::format("{}: {}", file.string(), e.what()));
    }
  }
  for (auto& [name, trials] : tests) {
    std::sort(trials.begin(), trials.end(),
              [](const auto& a, const auto& b) { return a.trial_index < b.trial_index; });
  }
  if (tests.empty()) {
    throw error(exit_code::failed,
                fmt::format("{} holds no result.json (run `aorta sweep run --output {}` or ctest "
                            "first)",
                            path.string(), path.string()));
  }
  return tests;
}

std::map<std::string, measured_test> load_measured(const fs::path& path) {
  std::map<std::string, measured_test> tests;
  std::error_code ec;
  std::vector<fs::path> baselines;
  if (fs::is_regular_file(path, ec) && is_baseline_file(path)) {
    baselines.push_back(path);
  } else if (fs::is_directory(path, ec)) {
    for (const auto& entry : fs::directory_iterator(path, ec)) {
      if (entry.is_regular_file() && is_baseline_file(entry.path())) baselines.push_back(entry.path());
    }
  }
  if (!baselines.empty()) {
    for (const auto& file : baselines) {
      auto test = load_baseline(file, file.stem().string());
      tests[test->test] = std::move(*test);
    }
    return tests;
  }
  for (const auto& [name, trials] : read_result_trees(path)) {
    auto measured = measured_from_records(name, trials);
    if (!measured.trials.empty()) tests[name] = std::move(measured);
  }
  return tests;
}

}  // namespace aorta::detail
