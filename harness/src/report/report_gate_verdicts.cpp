#include "report/report_gate_verdicts.hpp"

#include "aorta/error.hpp"
#include "aorta/schema.hpp"
#include "bounded_input.hpp"
#include "json_text.hpp"

#include <fmt/format.h>

#include <system_error>

namespace aorta::detail {
namespace {

namespace fs = std::filesystem;

std::optional<gate_test_verdict> read_gate_test_verdict(const fs::path& file) {
  std::error_code ignored;
  if (!fs::exists(fs::symlink_status(file, ignored))) return std::nullopt;
  nlohmann::json document;
  try {
    document = read_json_file(file);
  } catch (const json_input_error& failure) {
    throw error(exit_code::failed,
                fmt::format("{}: not valid JSON: {}", file.string(), failure.what()));
  } catch (const input_error& failure) {
    throw error(exit_code::failed, failure.what());
  }
  const auto schema = document.find("schema");
  const auto version = document.find("schema_version");
  if (!document.is_object() || schema == document.end() || *schema != schemas::gate.name ||
      version == document.end() || !version->is_number_integer() || *version < 1 ||
      *version > schemas::gate.version) {
    throw error(exit_code::failed,
                fmt::format("{}: not a gate.json this aorta reads (schema \"{}\", "
                            "schema_version 1 to {}), so the gate's verdict of the test is "
                            "unknown. Fix: run the test again, or upgrade aorta",
                            file.string(), schemas::gate.name, schemas::gate.version));
  }
  const auto said = document.find("test_verdict");
  if (said == document.end()) return std::nullopt;
  try {
    return gate_test_verdict_from_json(*said);
  } catch (const error& failure) {
    throw error(exit_code::failed, fmt::format("{}: {}", file.string(), failure.what()));
  }
}

}  // namespace

void report_gate_verdicts::lay_over_trial(const fs::path& test_dir, trial_record& trial) {
  const std::string key = test_dir.native();
  auto found = read_.find(key);
  if (found == read_.end()) {
    found = read_.emplace(key, read_gate_test_verdict(test_dir / "gate.json")).first;
  }
  if (found->second && is_about(*found->second, trial)) lay_over(trial, *found->second);
}

}  // namespace aorta::detail
