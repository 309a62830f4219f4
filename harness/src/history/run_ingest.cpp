#include "history/run_ingest.hpp"

#include "aorta/error.hpp"
#include "aorta/metrics.hpp"
#include "aorta/schema.hpp"
#include "bounded_input.hpp"
#include "history/iso_time.hpp"
#include "json_text.hpp"
#include "record/result_reader.hpp"
#include "utc_timestamp.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

namespace aorta::detail {
namespace fs = std::filesystem;
namespace {

// FNV-1a, 64 bits: an identity for bytes (a run, a setup), not a defence against forgery.
struct fnv1a64 {
  std::uint64_t state = 0xcbf29ce484222325ULL;
  // Each part's length first, so "ab"+"c" and "a"+"bc" digest differently.
  void add(std::string_view bytes) {
    std::uint64_t size = bytes.size();
    for (int i = 0; i < 8; ++i, size >>= 8) mix(static_cast<unsigned char>(size & 0xff));
    for (const char c : bytes) mix(static_cast<unsigned char>(c));
  }
  void mix(unsigned char byte) {
    state ^= byte;
    state *= 0x100000001b3ULL;
  }
  [[nodiscard]] std::string hex() const { return fmt::format("{:016x}", state); }
};

struct result_file {
  fs::path path;
  std::string digest;  // of its bytes: the text itself is not held once parsed
  trial_record record;
};

bool is_trial_directory(const std::string& name) {
  return name.size() > 6 && name.starts_with("trial_") &&
         name.find_first_not_of("0123456789", 6) == std::string::npos;
}

std::vector<fs::path> find_result_files(const fs::path& directory) {
  std::error_code ec;
  if (!fs::is_directory(directory, ec)) {
    throw error(exit_code::failed,
                fmt::format("{} is not a directory (give a sweep output directory or a CTest "
                            "aorta-results root)",
                            directory.string()));
  }
  std::vector<fs::path> found;
  fs::recursive_directory_iterator it(directory, ec), end;
  for (; !ec && it != end; it.increment(ec)) {
    if (it.depth() >= max_history_tree_depth) it.disable_recursion_pending();
    if (it->path().filename() != "result.json") continue;
    found.push_back(it->path());
    if (found.size() > max_history_result_files) {
      throw error(exit_code::failed,
                  fmt::format("{} holds more than {} result.json files (aorta's limit on one "
                              "history add); add its subdirectories in parts",
                              directory.string(), max_history_result_files));
    }
  }
  if (ec) {
    throw error(exit_code::failed, fmt::format("{}: cannot list it: {}; fix its permissions",
                                               directory.string(), ec.message()));
  }
  if (found.empty()) {
    throw error(exit_code::failed,
                fmt::format("{} holds no result.json (run `aorta sweep run --output {}` or ctest "
                            "first)",
                            directory.string(), directory.string()));
  }
  std::sort(found.begin(), found.end());
  return found;
}

result_file read_result_file(const fs::path& path) {
  result_file file{path, {}, {}};
  try {
    const std::string text = read_input_file(path, max_json_file_bytes, "max_json_file_bytes");
    fnv1a64 digest;
    digest.add(text);
    file.digest = digest.hex();
    file.record = trial_record_from_text(text);
  } catch (const json_input_error& e) {
    throw error(exit_code::failed,
                fmt::format("{}: not valid JSON: {}; nothing was added", path.string(), e.what()));
  } catch (const input_error& e) {
    throw error(exit_code::failed, fmt::format("{}; nothing was added", e.what()));
  } catch (const error& e) {
    throw error(exit_code::failed,
                fmt::format("{}: {}; nothing was added", path.string(), e.what()));
  }
  if (file.record.schema_version < 1 || file.record.schema_version > schemas::result.version) {
    throw error(exit_code::failed,
                fmt::format("{}: schema_version {} is not one this aorta reads (1 to {}); "
                            "nothing was added. Fix: upgrade aorta",
                            path.string(), file.record.schema_version, schemas::result.version));
  }
  return file;
}

void add_sample(history_trial& trial, std::set<std::string>& seen, const fs::path& file,
                const std::string& quantity, double value) {
  if (!std::isfinite(value)) {
    throw error(exit_code::failed,
                fmt::format("{}: quantity '{}' of trial {} is not a finite number; nothing was "
                            "added. Fix: re-run the trial, or remove its directory",
                            file.string(), quantity, trial.index));
  }
  if (!seen.insert(quantity).second) {
    throw error(exit_code::failed,
                fmt::format("{}: quantity '{}' appears twice in trial {} (a metric named like a "
                            "kernel quantity); nothing was added",
                            file.string(), quantity, trial.index));
  }
  trial.samples.push_back({quantity, quantity_unit(quantity), value});
}

// A multi-rank trial's per-rank series, as the per-rank gate reads them: `rank <r>: <quantity>`
// (quantity as above: a metric, time_ms(k), count(k)), the unit that of the quantity.
void add_rank_samples(history_trial& trial, std::set<std::string>& seen, const fs::path& file,
                      const std::vector<rank_row>& ranks) {
  // Kernels of the first collector with kernels, as for the sum: two collectors name one kernel.
  std::string collector;
  for (const auto& row : ranks) {
    if (collector.empty() && !row.kernels.empty()) collector = row.collector;
  }
  for (const auto& row : ranks) {
    const std::string prefix = fmt::format("rank {}: ", row.rank);
    const auto add = [&](const std::string& quantity, double value) {
      add_sample(trial, seen, file, prefix + quantity, value);
      trial.samples.back().unit = quantity_unit(quantity);
    };
    for (const auto& [name, value] : row.metrics) add(name, value);
    if (row.collector != collector) continue;
    for (const auto& [name, sample] : row.kernels) {
      add(fmt::format("time_ms({})", name), sample.second);
      if (sample.first) add(fmt::format("count({})", name), static_cast<double>(*sample.first));
    }
  }
}

history_trial trial_samples(const result_file& file) {
  const trial_record& record = file.record;
  history_trial trial;
  trial.index = record.trial_index;
  trial.verdict = std::string(to_string(record.verdict_from_gate ? verdict::pass : record.verdict));
  trial.started_at = record.started_at;
  std::set<std::string> seen;
  for (const auto& [name, value] : record.metrics.values) {
    if (const auto number = numeric_value(value)) add_sample(trial, seen, file.path, name, *number);
  }
  // Kernel quantities of the first collector with kernels, as the gate reads them.
  const std::string collector =
      record.metrics.kernels.empty() ? std::string() : record.metrics.kernels.front().collector;
  std::map<std::string, std::pair<double, std::optional<double>>> kernels;
  std::set<std::string> uncounted;
  for (const auto& row : record.metrics.kernels) {
    if (row.collector != collector) continue;
    auto& [time_ms, launches] = kernels[std::string(row.name)];
    time_ms += row.total_ms;
    if (!row.launches) uncounted.insert(std::string(row.name));
    launches = launches.value_or(0.0) + static_cast<double>(row.launches.value_or(0));
  }
  for (const auto& [name, sums] : kernels) {
    add_sample(trial, seen, file.path, fmt::format("time_ms({})", name), sums.first);
    if (!uncounted.contains(name)) {
      add_sample(trial, seen, file.path, fmt::format("count({})", name), *sums.second);
    }
  }
  add_sample(trial, seen, file.path, "wall_seconds", record.wall_seconds);
  add_rank_samples(trial, seen, file.path, record.ranks);
  return trial;
}

// The run's card: result.json's `gpu_uuid`, and `gpu` ("NVIDIA H200, 580.159.04") as model and
// driver.
void set_card(history_run& run, const std::map<std::string, std::string>& versions) {
  if (const auto uuid = versions.find("gpu_uuid"); uuid != versions.end())
    run.card_uuid = uuid->second;
  if (const auto gpu = versions.find("gpu"); gpu != versions.end()) {
    const auto comma = gpu->second.rfind(',');
    run.card_model = gpu->second.substr(0, comma);
    if (comma != std::string::npos) {
      run.card_driver = gpu->second.substr(comma + 1);
      run.card_driver.erase(0, run.card_driver.find_first_not_of(' '));
    }
  }
}

std::string setup_digest(const trial_record& record) {
  fnv1a64 digest;
  digest.add(record.recipe_path);
  for (const auto& word : record.command) digest.add(word);
  digest.add("collectors");
  for (const auto& name : record.collectors) digest.add(name);
  digest.add("env");
  for (const auto& [name, value] : record.env_set) digest.add(name + "=" + value);
  return digest.hex();
}

std::string test_name(const fs::path& test_directory, const trial_record& record) {
  const fs::path absolute = fs::absolute(test_directory).lexically_normal();
  std::string name = absolute.filename().string();
  if (record.cell) name = absolute.parent_path().filename().string() + "/" + name;
  return name;
}

history_run make_run(const fs::path& test_directory, std::vector<result_file>& files,
                     const ingest_context& context) {
  std::sort(files.begin(), files.end(), [](const auto& a, const auto& b) {
    return a.record.trial_index < b.record.trial_index;
  });
  // Two files of one test claiming one trial (a refused run's <output>/result.json beside
  // trial_0/, a copied trial directory) would otherwise stop the add at the store's key.
  for (std::size_t i = 1; i < files.size(); ++i) {
    if (files[i].record.trial_index != files[i - 1].record.trial_index) continue;
    throw error(exit_code::failed,
                fmt::format("{} and {} are both trial {} of test directory {}; nothing was added. "
                            "Fix: remove the stale one, or add the directories separately",
                            files[i - 1].path.string(), files[i].path.string(),
                            files[i].record.trial_index, test_directory.string()));
  }
  const trial_record& first = files.front().record;
  history_run run;
  run.test = test_name(test_directory, first);
  fnv1a64 key;
  key.add(run.test);
  for (const auto& file : files) key.add(file.digest);
  run.run_key = key.hex();
  run.commit = context.commit;
  run.branch = context.branch;
  run.tool_versions = first.versions;
  run.tool_versions.erase("aorta");
  set_card(run, first.versions);
  run.recipe_path = first.recipe_path;
  run.recipe_digest = setup_digest(first);
  run.aorta_version = first.aorta_version;
  run.source = fs::absolute(test_directory).lexically_normal().string();
  std::optional<utc_time> earliest;
  for (const auto& file : files) {
    run.trials.push_back(trial_samples(file));
    const auto started = parse_iso_time(file.record.started_at);
    if (started && (!earliest || started->unix_seconds < earliest->unix_seconds))
      earliest = started;
  }
  if (!context.time.empty()) {
    run.time = context.time;
    run.time_unix = context.time_unix;
  } else {
    if (!earliest) earliest = parse_iso_time(utc_timestamp());
    run.time = earliest->text;
    run.time_unix = earliest->unix_seconds;
  }
  return run;
}

}  // namespace

std::string quantity_unit(const std::string& quantity) {
  if (quantity.starts_with("time_ms(") || quantity.ends_with("_ms")) return "ms";
  if (quantity.starts_with("count(") || quantity.ends_with("_count")) return "count";
  if (quantity.find("cycles") != std::string::npos) return "cycles";
  if (quantity.starts_with("callgrind_") && quantity.find("ir") != std::string::npos) return "Ir";
  if (quantity.ends_with("_seconds")) return "s";
  return "";
}

std::vector<history_run> read_history_runs(const std::vector<fs::path>& directories,
                                           const ingest_context& context) {
  std::map<fs::path, std::vector<result_file>> by_test_directory;
  std::size_t files = 0;
  for (const auto& directory : directories) {
    for (const auto& path : find_result_files(directory)) {
      if (++files > max_history_result_files) {
        throw error(exit_code::failed,
                    fmt::format("{}: more than {} result.json files in one history add; add the "
                                "directories in parts",
                                path.string(), max_history_result_files));
      }
      const fs::path trial_directory = path.parent_path();
      const fs::path test_directory = is_trial_directory(trial_directory.filename().string())
                                          ? trial_directory.parent_path()
                                          : trial_directory;
      by_test_directory[fs::absolute(test_directory).lexically_normal()].push_back(
          read_result_file(path));
    }
  }
  std::vector<history_run> runs;
  std::size_t samples = 0;
  for (auto& [test_directory, results] : by_test_directory) {
    runs.push_back(make_run(test_directory, results, context));
    for (const auto& trial : runs.back().trials) samples += trial.samples.size();
    if (samples > max_history_samples) {
      throw error(exit_code::failed,
                  fmt::format("{}: more than {} samples in one history add (aorta's limit on "
                              "one add's memory); add the directories in parts",
                              test_directory.string(), max_history_samples));
    }
  }
  return runs;
}

}  // namespace aorta::detail
