#include "bisect/bisect_record.hpp"

#include "aorta/error.hpp"
#include "aorta/schema.hpp"
#include "json_document.hpp"
#include "json_text.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>

namespace aorta::detail {
namespace {

using nlohmann::json;

json optional_number(const std::optional<double>& value) {
  return value ? json(*value) : json(nullptr);
}

std::optional<double> read_optional_number(const json& object, const char* key) {
  const json& value = object.at(key);
  if (value.is_null()) return std::nullopt;
  return value.get<double>();
}

json rows_json(const std::vector<watched_row>& rows) {
  json out = json::array();
  for (const auto& row : rows) {
    out.push_back({{"quantity", row.quantity},
                   {"base_median", optional_number(row.base_median)},
                   {"head_median", optional_number(row.head_median)},
                   {"ratio", optional_number(row.ratio)},
                   {"evidence", row.evidence},
                   {"verdict", row.verdict}});
  }
  return out;
}

std::vector<watched_row> read_rows(const json& rows) {
  std::vector<watched_row> out;
  for (const auto& row : rows) {
    out.push_back({row.at("quantity").get<std::string>(), read_optional_number(row, "base_median"),
                   read_optional_number(row, "head_median"), read_optional_number(row, "ratio"),
                   row.at("evidence").get<std::string>(), row.at("verdict").get<std::string>()});
  }
  return out;
}

json settings_json(const bisect_settings& settings) {
  return {{"repository", settings.repository},
          {"good", settings.good},
          {"bad", settings.bad},
          {"recipe", settings.recipe},
          {"build", settings.build},
          {"command", settings.command},
          {"quantities", settings.quantities},
          {"gate", settings.gate},
          {"threshold", optional_number(settings.threshold)},
          {"rounds", settings.rounds},
          {"max_rounds", settings.max_rounds},
          {"seed", settings.seed}};
}

bisect_settings read_settings(const json& object) {
  bisect_settings settings;
  settings.repository = object.at("repository").get<std::string>();
  settings.good = object.at("good").get<std::string>();
  settings.bad = object.at("bad").get<std::string>();
  settings.recipe = object.at("recipe").get<std::string>();
  settings.build = object.at("build").get<std::string>();
  settings.command = object.at("command").get<std::vector<std::string>>();
  settings.quantities = object.at("quantities").get<std::vector<std::string>>();
  settings.gate = object.at("gate").get<std::string>();
  settings.threshold = read_optional_number(object, "threshold");
  settings.rounds = object.at("rounds").get<int>();
  settings.max_rounds = object.at("max_rounds").get<int>();
  settings.seed = object.at("seed").get<std::uint64_t>();
  return settings;
}

json step_json(const bisect_step& step) {
  return {{"step", step.number},
          {"commit", step.commit},
          {"base", step.base},
          {"subject", step.subject},
          {"verdict", step.verdict},
          {"ratio", optional_number(step.ratio)},
          {"evidence", step.evidence},
          {"rounds", step.rounds},
          {"total_rounds", step.total_rounds},
          {"looks", step.looks},
          {"seconds", step.seconds},
          {"directory", step.directory},
          {"rows", rows_json(step.rows)},
          {"summary", step.summary}};
}

bisect_step read_step(const json& object) {
  bisect_step step;
  step.number = object.at("step").get<int>();
  step.commit = object.at("commit").get<std::string>();
  step.base = object.at("base").get<std::string>();
  step.subject = object.at("subject").get<std::string>();
  step.verdict = object.at("verdict").get<std::string>();
  step.ratio = read_optional_number(object, "ratio");
  step.evidence = object.at("evidence").get<std::string>();
  step.rounds = object.at("rounds").get<int>();
  step.total_rounds = object.at("total_rounds").get<int>();
  step.looks = object.at("looks").get<int>();
  step.seconds = object.at("seconds").get<double>();
  step.directory = object.at("directory").get<std::string>();
  step.rows = read_rows(object.at("rows"));
  // Absent in a bisect.json written before the sentence was kept: resuming it still works.
  step.summary = object.value("summary", "");
  return step;
}

}  // namespace

const bisect_step* find_step(const bisect_record& record, const std::string& commit,
                             const std::string& base) {
  const auto found =
      std::find_if(record.steps.begin(), record.steps.end(), [&](const bisect_step& step) {
        return step.commit == commit && step.base == base;
      });
  return found == record.steps.end() ? nullptr : &*found;
}

const built_commit* find_build(const bisect_record& record, const std::string& commit) {
  const auto found = std::find_if(record.built.begin(), record.built.end(),
                                  [&](const built_commit& b) { return b.commit == commit; });
  return found == record.built.end() ? nullptr : &*found;
}

void write_bisect_record(const std::filesystem::path& file, const bisect_record& record) {
  json built = json::array();
  for (const auto& build : record.built) {
    built.push_back({{"commit", build.commit},
                     {"succeeded", build.succeeded},
                     {"seconds", build.seconds},
                     {"log", build.log}});
  }
  json steps = json::array();
  for (const auto& step : record.steps) steps.push_back(step_json(step));
  json culprit = nullptr;
  if (record.culprit) {
    culprit = {{"commit", *record.culprit},
               {"subject", record.culprit_subject},
               {"moved", rows_json(record.culprit_rows)},
               {"summary", record.culprit_summary}};
  }
  write_json_document(file,
                      {{"status", record.status},
                       {"message", record.message},
                       {"culprit", culprit},
                       {"unseparated", record.unseparated},
                       {"settings", settings_json(record.settings)},
                       {"candidates", record.candidates},
                       {"tracked", record.tracked},
                       {"built", built},
                       {"steps", steps}},
                      schemas::bisect);
}

bisect_record read_bisect_record(const std::filesystem::path& file) {
  const auto refuse = [&](const std::string& why) {
    return setup_error(fmt::format("bisect: {}: {}. It holds what an earlier bisect into this "
                                   "directory did. Fix: choose another --output, or remove the "
                                   "directory (and run `git worktree prune` in the repository)",
                                   file.string(), why));
  };
  json document;
  try {
    document = read_json_file(file);
  } catch (const std::exception& e) {
    throw refuse(e.what());
  }
  if (!document.is_object() || document.value("schema", "") != schemas::bisect.name ||
      !document.contains("schema_version") || !document["schema_version"].is_number_integer() ||
      document["schema_version"].get<int>() > schemas::bisect.version) {
    throw refuse(fmt::format("not an {} document of version {} or older", schemas::bisect.name,
                             schemas::bisect.version));
  }
  try {
    bisect_record record;
    record.status = document.at("status").get<std::string>();
    record.message = document.at("message").get<std::string>();
    record.settings = read_settings(document.at("settings"));
    record.candidates = document.at("candidates").get<std::vector<std::string>>();
    record.tracked = document.at("tracked").get<std::vector<std::string>>();
    for (const auto& build : document.at("built")) {
      record.built.push_back({build.at("commit").get<std::string>(),
                              build.at("succeeded").get<bool>(), build.at("seconds").get<double>(),
                              build.at("log").get<std::string>()});
    }
    for (const auto& step : document.at("steps")) record.steps.push_back(read_step(step));
    record.unseparated = document.at("unseparated").get<std::vector<std::string>>();
    if (const json& culprit = document.at("culprit"); !culprit.is_null()) {
      record.culprit = culprit.at("commit").get<std::string>();
      record.culprit_subject = culprit.at("subject").get<std::string>();
      record.culprit_rows = read_rows(culprit.at("moved"));
      record.culprit_summary = culprit.value("summary", "");
    }
    return record;
  } catch (const json::exception& e) {
    throw refuse(fmt::format("a key is missing or of the wrong type ({})", e.what()));
  }
}

}  // namespace aorta::detail
