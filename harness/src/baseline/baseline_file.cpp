#include "baseline/baseline_file.hpp"

#include "aorta/error.hpp"
#include "aorta/schema.hpp"
#include "baseline/calibration.hpp"
#include "atomic_file.hpp"
#include "baseline/statistics.hpp"
#include "contained_path.hpp"
#include "json_document.hpp"
#include "json_text.hpp"
#include "metrics/quantity_table.hpp"

#include <fmt/format.h>

#include <array>
#include <charconv>
#include <cmath>
#include <limits>
#include <optional>
#include <fstream>
#include <sstream>

namespace aorta::detail {
namespace {

using json = nlohmann::json;

json series_json(const std::vector<std::optional<double>>& samples) {
  json values = json::array();
  std::vector<double> present;
  for (const auto& sample : samples) {
    values.push_back(sample ? json(*sample) : json(nullptr));
    if (sample) present.push_back(*sample);
  }
  const auto summary = summarize_samples(present);
  return {{"samples", std::move(values)}, {"median", summary.median}, {"q1", summary.q1},
          {"q3", summary.q3}, {"min", summary.min}, {"n", summary.n}};
}

// A timed series' trial-to-trial noise (docs/regression-gate.md, "Calibration"): the standard
// deviation of the log of its samples, for reviewers and dashboards. The gate recomputes it from
// the samples, so an edited value changes no verdict; `aorta baseline show` turns it into trials.
void add_noise(json& series, const std::vector<std::optional<double>>& samples) {
  std::vector<double> present;
  for (const auto& sample : samples) {
    if (sample) present.push_back(*sample);
  }
  if (const auto sigma = log_noise(present)) series["noise"] = *sigma;
}

// Where a metric key goes in the file: [section, name, field], as the quantity table declares it
// (a metric of no declared section stays whole under "metrics").
std::array<std::string, 3> place_of(const std::string& key) {
  const quantity_declaration* declared = declaration_of_metric(key);
  if (declared == nullptr || declared->baseline_field.empty()) return {"metrics", key, ""};
  return {std::string(declared->baseline_section), key.substr(declared->metric_prefix.size()),
          std::string(declared->baseline_field)};
}

// The metric key of a series the file holds under [section, name, field]; nullopt for a field
// the quantity table does not declare in that section.
std::optional<std::string> baseline_key_of(const std::string& section, const std::string& name,
                                           const std::string& field) {
  if (section == "metrics") return name;
  for (const auto& declared : quantity_table()) {
    if (declared.baseline_section == section && declared.baseline_field == field &&
        !declared.metric_prefix.empty()) {
      return metric_key(declared.quantity, name);
    }
  }
  return std::nullopt;
}

[[noreturn]] void corrupt(const std::filesystem::path& file, std::string_view what) {
  throw error(exit_code::failed,
              fmt::format("baseline {}: {}. Fix: re-record it with `aorta baseline record "
                          "<results> --into {}` (or restore it from version control)",
                          file.string(), what, file.parent_path().string()));
}

std::vector<std::optional<double>> read_series(const json& series, std::size_t trials,
                                               const std::filesystem::path& file,
                                               const std::string& where) {
  if (!series.is_object() || !series.contains("samples") || !series["samples"].is_array()) {
    corrupt(file, fmt::format("'{}' has no 'samples' list", where));
  }
  const auto& samples = series["samples"];
  if (samples.size() != trials) {
    corrupt(file, fmt::format("'{}.samples' has {} values but the baseline has {} trials", where,
                              samples.size(), trials));
  }
  std::vector<std::optional<double>> values;
  std::vector<double> present;
  for (const auto& sample : samples) {
    if (sample.is_null()) {
      values.emplace_back();
      continue;
    }
    if (!sample.is_number() || !std::isfinite(sample.get<double>()) || sample.get<double>() < 0) {
      corrupt(file, fmt::format("'{}.samples' holds {}, not a finite non-negative number", where,
                                detail::dump_json(sample)));
    }
    values.emplace_back(sample.get<double>());
    present.push_back(sample.get<double>());
  }
  if (present.empty()) corrupt(file, fmt::format("'{}' has n = 0 (no sample at all)", where));
  const auto summary = summarize_samples(present);
  const auto stored_n = series.value("n", json(nullptr));
  const auto stored_median = series.value("median", json(nullptr));
  const bool median_ok = stored_median.is_number() &&
                         std::abs(stored_median.get<double>() - summary.median) <=
                             1e-9 * std::max(1.0, std::abs(summary.median));
  if (!stored_n.is_number_integer() || stored_n.get<std::size_t>() != summary.n || !median_ok) {
    corrupt(file, fmt::format("'{}' summary (n {}, median {}) does not match its samples (n {}, "
                              "median {})",
                              where, detail::dump_json(stored_n), detail::dump_json(stored_median), summary.n,
                              summary.median));
  }
  return values;
}

// The string at `key`, `fallback` when it is absent; any other type names the file and key.
std::string string_key(const json& in, const char* key, const std::string& fallback,
                       const std::filesystem::path& file) {
  const auto found = in.find(key);
  if (found == in.end()) return fallback;
  if (!found->is_string()) {
    corrupt(file, fmt::format("'{}' is {} ({}), not a string", key, found->type_name(),
                              dump_json(*found).substr(0, 80)));
  }
  return found->get<std::string>();
}

// The metrics, scopes, functions and kernels sections of a series of trials (the test's sum, or
// one rank's own).
json sections_json(const std::vector<trial_snapshot>& snapshots) {
  const std::size_t trials = snapshots.size();
  std::map<std::array<std::string, 3>, std::vector<std::optional<double>>> metric_series;
  std::map<std::string, std::array<std::vector<std::optional<double>>, 2>> kernel_series;
  for (std::size_t index = 0; index < trials; ++index) {
    for (const auto& [key, value] : snapshots[index].metrics) {
      auto& series = metric_series[place_of(key)];
      series.resize(trials);
      series[index] = value;
    }
    for (const auto& [name, sample] : snapshots[index].kernels) {
      auto& series = kernel_series[name];
      for (auto& column : series) column.resize(trials);
      series[0][index] = sample.launches;
      if (std::isfinite(sample.time_ms)) series[1][index] = sample.time_ms;
    }
  }
  json out = {{"metrics", json::object()},
              {"scopes", json::object()},
              {"functions", json::object()},
              {"kernels", json::object()}};
  for (const auto& [place, series] : metric_series) {
    const auto& [section, name, field] = place;
    if (field.empty()) {
      out[section][name] = series_json(series);
    } else {
      out[section][name][field] = series_json(series);
      if (field == "cycles") add_noise(out[section][name][field], series);
    }
  }
  for (const auto& [name, series] : kernel_series) {
    out["kernels"][name]["time_ms"] = series_json(series[1]);
    add_noise(out["kernels"][name]["time_ms"], series[1]);
    bool any_launches = false;
    for (const auto& value : series[0]) any_launches = any_launches || value.has_value();
    if (any_launches) out["kernels"][name]["launches"] = series_json(series[0]);
  }
  return out;
}

// `ranks`: each rank's own series and where it ran, keyed by the rank number.
json ranks_json(const measured_test& test) {
  json out = json::object();
  for (const auto& [rank, series] : test.ranks) {
    json entry = sections_json(series.trials);
    json places = json::array();
    for (const auto& place : series.places) {
      places.push_back({{"host", place.host}, {"card", place.card}});
    }
    entry["places"] = std::move(places);
    out[std::to_string(rank)] = std::move(entry);
  }
  return out;
}

// The metrics, scopes, functions and kernels sections of `in` into `out` (`trials` long once a
// series has shown that many samples); `where` prefixes the keys a message names ("ranks.2.").
void read_sections(const json& in, std::size_t trials, const std::filesystem::path& file,
                   const std::string& where, std::vector<trial_snapshot>& out) {
  // Sized only once a series has shown that many samples (or at the end, within
  // max_baseline_trials): memory follows what the file holds, not what it claims.
  const auto size_trials = [&out, trials] { out.resize(trials); };
  for (const std::string section : {"metrics", "scopes", "functions"}) {
    const auto found = in.find(section);
    if (found == in.end()) continue;
    if (!found->is_object()) corrupt(file, fmt::format("'{}{}' is not an object", where, section));
    for (const auto& item : found->items()) {
      // Named copies, not a structured binding: clang 14 (the fuzz build) cannot capture one.
      const std::string name = item.key();
      const json& value = item.value();
      const auto store = [&](const json& series, const std::string& field) {
        const auto values =
            read_series(series, trials, file, fmt::format("{}{}.{}{}", where, section, name,
                                                          field.empty() ? "" : "." + field));
        const auto key = baseline_key_of(section, name, field);
        if (!key) {
          corrupt(file, fmt::format("'{}{}.{}' has a field '{}' that no quantity keeps there",
                                    where, section, name, field));
        }
        size_trials();
        for (std::size_t i = 0; i < trials; ++i) {
          if (values[i]) out[i].metrics[*key] = *values[i];
        }
      };
      if (section == "metrics") {
        store(value, "");
      } else {
        if (!value.is_object()) {
          corrupt(file, fmt::format("'{}{}.{}' is not an object", where, section, name));
        }
        for (const auto& [field, series] : value.items()) store(series, field);
      }
    }
  }
  if (const auto kernels = in.find("kernels"); kernels != in.end()) {
    if (!kernels->is_object()) corrupt(file, fmt::format("'{}kernels' is not an object", where));
    for (const auto& [name, value] : kernels->items()) {
      if (!value.is_object() || !value.contains("time_ms")) {
        corrupt(file, fmt::format("'{}kernels.{}' has no 'time_ms'", where, name));
      }
      const auto times =
          read_series(value["time_ms"], trials, file, where + "kernels." + name + ".time_ms");
      size_trials();
      std::vector<std::optional<double>> launches(trials);
      if (value.contains("launches")) {
        launches =
            read_series(value["launches"], trials, file, where + "kernels." + name + ".launches");
      }
      for (std::size_t i = 0; i < trials; ++i) {
        if (times[i] || launches[i]) {
          out[i].kernels[name] =
              kernel_sample{launches[i], times[i].value_or(std::numeric_limits<double>::quiet_NaN())};
        }
      }
    }
  }
}

// `ranks` (absent in a baseline of a single-process test or from an aorta before it): each rank's
// series and places, as many as the test has trials.
void read_ranks(const json& in, std::size_t trials, const std::filesystem::path& file,
                measured_test& test) {
  const auto ranks = in.find("ranks");
  if (ranks == in.end()) return;
  if (!ranks->is_object()) corrupt(file, "'ranks' is not an object");
  for (const auto& [key, entry] : ranks->items()) {
    int rank = -1;
    const auto [end, ec] = std::from_chars(key.data(), key.data() + key.size(), rank);
    if (ec != std::errc{} || end != key.data() + key.size() || rank < 0) {
      corrupt(file, fmt::format("'ranks' has the key '{}', not a rank number", key.substr(0, 40)));
    }
    if (!entry.is_object()) corrupt(file, fmt::format("'ranks.{}' is not an object", key));
    auto& series = test.ranks[rank];
    // Not sized here: a rank's series are as long as the samples the file holds, never as long
    // as a `trials` it merely claims, times the ranks it lists.
    read_sections(entry, trials, file, "ranks." + key + ".", series.trials);
    const auto places = entry.find("places");
    if (places == entry.end()) continue;
    if (!places->is_array() || places->size() != trials) {
      corrupt(file, fmt::format("'ranks.{}.places' is not a list of {} places", key, trials));
    }
    series.places.resize(trials);
    for (std::size_t i = 0; i < trials; ++i) {
      if (!(*places)[i].is_object()) {
        corrupt(file, fmt::format("'ranks.{}.places' holds {}, not an object", key,
                                  (*places)[i].type_name()));
      }
      series.places[i] = rank_place{string_key((*places)[i], "host", "", file),
                                    string_key((*places)[i], "card", "", file)};
    }
  }
}

}  // namespace

json baseline_to_json(const measured_test& test) {
  json out = sections_json(test.trials);
  out["test"] = test.test;
  out["fingerprint"] = test.fingerprint;
  out["provenance"] = test.provenance;
  out["trials"] = test.trials.size();
  if (!test.ranks.empty()) out["ranks"] = ranks_json(test);
  if (test.ranks_serialized) out["ranks_serialized"] = true;
  return stamped(std::move(out), schemas::baseline);
}

measured_test baseline_from_json(const json& in, const std::filesystem::path& file,
                                 const std::string& expected_test) {
  if (!in.is_object() || !in.contains("schema") || !in["schema"].is_string() ||
      in["schema"].get<std::string>() != schemas::baseline.name) {
    corrupt(file, fmt::format("is not an aorta baseline (no \"schema\": \"{}\")",
                              schemas::baseline.name));
  }
  const auto version = in.value("schema_version", json(nullptr));
  if (!version.is_number_integer() || version.get<long long>() != schemas::baseline.version) {
    corrupt(file, fmt::format("has schema_version {}, this aorta reads {}",
                              detail::dump_json(version).substr(0, 80), schemas::baseline.version));
  }
  measured_test test;
  test.test = string_key(in, "test", "", file);
  if (!expected_test.empty() && test.test != expected_test) {
    corrupt(file, fmt::format("is the baseline of test '{}', not of '{}'", test.test, expected_test));
  }
  const auto trials_json = in.value("trials", json(nullptr));
  if (!trials_json.is_number_integer() || trials_json.get<long long>() <= 0 ||
      trials_json.get<long long>() > max_baseline_trials) {
    corrupt(file, fmt::format("'trials' is {}, not a positive count of at most {} "
                              "(max_baseline_trials, the most trials a run makes)",
                              detail::dump_json(trials_json).substr(0, 80), max_baseline_trials));
  }
  const auto trials = trials_json.get<std::size_t>();
  try {
    test.fingerprint = in.value("fingerprint", json::object()).get<std::map<std::string, std::string>>();
  } catch (const json::exception&) {
    corrupt(file, "'fingerprint' is not an object of strings");
  }
  test.provenance = in.value("provenance", json::object());
  if (!test.provenance.is_object()) {
    corrupt(file, fmt::format("'provenance' is {}, not an object", test.provenance.type_name()));
  }
  read_sections(in, trials, file, "", test.trials);
  read_ranks(in, trials, file, test);
  if (const auto serialized = in.find("ranks_serialized"); serialized != in.end()) {
    if (!serialized->is_boolean()) {
      corrupt(file,
              fmt::format("'ranks_serialized' is {}, not true or false", serialized->type_name()));
    }
    test.ranks_serialized = serialized->get<bool>();
  }
  test.trials.resize(trials);
  return test;
}

std::filesystem::path baseline_path(const std::filesystem::path& dir, const std::string& test) {
  // The test name comes from --test-name or a directory name: never a path out of `dir`.
  (void)contained_path(dir, test, "test name");
  return dir / (test + ".json");
}

std::optional<measured_test> load_baseline(const std::filesystem::path& file,
                                           const std::string& expected_test) {
  std::error_code ec;
  if (!std::filesystem::exists(file, ec)) return std::nullopt;
  json parsed;
  try {
    parsed = read_json_file(file);
  } catch (const json_input_error& e) {
    corrupt(file, fmt::format("is not valid JSON ({})", e.what()));
  } catch (const input_error& e) {
    throw error(exit_code::failed, e.what());
  }
  return baseline_from_json(parsed, file, expected_test);
}

void write_baseline(const std::filesystem::path& file, const measured_test& test) {
  std::error_code ec;
  std::filesystem::create_directories(file.parent_path(), ec);
  // Reported here: the write that follows would only see the directory missing (ENOENT), not why
  // it could not be made (a read-only mount, no permission).
  if (ec) {
    throw setup_error(fmt::format("cannot create the baseline directory {}: {}; check that it "
                                  "is writable (not a read-only mount) or give another --into",
                                  file.parent_path().string(), ec.message()));
  }
  write_file_atomically(file, document_text(baseline_to_json(test)));
}

}  // namespace aorta::detail
