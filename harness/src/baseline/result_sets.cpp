#include "baseline/result_sets.hpp"

#include "aorta/error.hpp"
#include "aorta/schema.hpp"
#include "baseline/baseline_file.hpp"
#include "json_text.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <fstream>
#include <sstream>
#include <utility>

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

enum class json_file_kind { baseline, other, damaged };

// A baseline, other JSON (beside the baselines, a "schema" of another type included), or a .json
// file aorta cannot read at all, with why in `damage`.
json_file_kind classify_json_file(const fs::path& file, std::string& damage) {
  if (file.extension() != ".json" || file.filename() == "result.json") {
    return json_file_kind::other;
  }
  try {
    const auto json = read_json(file);
    const auto schema = json.is_object() ? json.find("schema") : json.end();
    return json.is_object() && schema != json.end() && schema->is_string() &&
                   schema->get<std::string>() == schemas::baseline.name
               ? json_file_kind::baseline
               : json_file_kind::other;
  } catch (const error& e) {
    damage = e.what();
    return json_file_kind::damaged;
  }
}

// A baseline that cannot be read is named with its damage: it was skipped as "not a baseline",
// and compare then said the directory "holds no result.json".
[[noreturn]] void refuse_damaged(const fs::path& path, const fs::path& file,
                                 const std::string& damage) {
  throw error(exit_code::failed,
              fmt::format("{}: cannot be read as a baseline ({}), so {} holds no baseline aorta "
                          "can compare against. Fix: record it again (aorta baseline record "
                          "RESULTS --into {}), or move the file away",
                          file.string(), damage, path.string(), path.string()));
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
  std::vector<std::pair<fs::path, std::string>> damaged;
  const auto sort_out = [&](const fs::path& file) {
    std::string damage;
    const json_file_kind kind = classify_json_file(file, damage);
    if (kind == json_file_kind::baseline) baselines.push_back(file);
    if (kind == json_file_kind::damaged) damaged.emplace_back(file, std::move(damage));
  };
  if (fs::is_regular_file(path, ec)) {
    sort_out(path);
  } else if (fs::is_directory(path, ec)) {
    for (const auto& entry : fs::directory_iterator(path, ec)) {
      if (entry.is_regular_file()) sort_out(entry.path());
    }
  }
  std::sort(damaged.begin(), damaged.end());
  // Beside other baselines, a damaged one is a test that would silently drop out of the compare.
  if (!baselines.empty() && !damaged.empty()) {
    refuse_damaged(path, damaged.front().first, damaged.front().second);
  }
  if (!baselines.empty()) {
    for (const auto& file : baselines) {
      auto test = load_baseline(file, file.stem().string());
      tests[test->test] = std::move(*test);
    }
    return tests;
  }
  std::map<std::string, std::vector<trial_record>> trees;
  try {
    trees = read_result_trees(path);
  } catch (const error&) {
    // No baseline and no readable results: the damaged file is the likelier cause.
    if (!damaged.empty()) refuse_damaged(path, damaged.front().first, damaged.front().second);
    throw;
  }
  for (const auto& [name, trials] : trees) {
    auto measured = measured_from_records(name, trials);
    if (!measured.trials.empty()) tests[name] = std::move(measured);
  }
  return tests;
}

}  // namespace aorta::detail
