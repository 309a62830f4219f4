#include "record/gate_verdict.hpp"

#include "aorta/error.hpp"
#include "json_text.hpp"
#include "record/result_json_parts.hpp"
#include "record/verdict_rules.hpp"

#include <fmt/format.h>

#include <string_view>

namespace aorta::detail {
namespace {

using json = nlohmann::json;

[[noreturn]] void malformed_gate_verdict(std::string_view key, std::string_view expected) {
  throw error(exit_code::failed,
              fmt::format("gate.json: key 'test_verdict.{}' should be {}; the gate's verdict of "
                          "this test cannot be read. Fix: run the test again (`aorta sweep run` "
                          "rewrites gate.json)",
                          key, expected));
}

const json& gate_verdict_member(const json& object, const char* key,
                                bool (json::*is_kind)() const noexcept, std::string_view expected) {
  const auto found = object.find(key);
  if (found == object.end() || !((*found).*is_kind)()) malformed_gate_verdict(key, expected);
  return *found;
}

}  // namespace

json to_json(const gate_test_verdict& said) {
  json checks = json::array();
  for (const auto& check : said.checks) checks.push_back(check_result_json(check));
  json out = {{"trial_index", said.trial_index},
              {"started_at", said.started_at},
              {"turned_to", said.turned_to ? json(to_string(*said.turned_to)) : json(nullptr)},
              {"reason", said.reason},
              {"checks", std::move(checks)},
              {"notes", said.notes}};
  return out;
}

gate_test_verdict gate_test_verdict_from_json(const json& object) {
  if (!object.is_object()) malformed_gate_verdict("", "an object");
  gate_test_verdict said;
  const json& index =
      gate_verdict_member(object, "trial_index", &json::is_number_integer, "an integer");
  if (index.get<std::int64_t>() < 0 || index.get<std::int64_t>() > 999999) {
    malformed_gate_verdict("trial_index", "a trial number (0 to 999999)");
  }
  said.trial_index = index.get<int>();
  said.started_at =
      gate_verdict_member(object, "started_at", &json::is_string, "a string").get<std::string>();
  const auto turned = object.find("turned_to");
  if (turned == object.end()) malformed_gate_verdict("turned_to", "null, \"fail\" or \"skip\"");
  if (!turned->is_null()) {
    const auto parsed =
        turned->is_string() ? parse_verdict(turned->get<std::string>()) : std::nullopt;
    if (!parsed || (*parsed != verdict::fail && *parsed != verdict::skip)) {
      malformed_gate_verdict("turned_to", "null, \"fail\" or \"skip\"");
    }
    said.turned_to = parsed;
  }
  said.reason =
      gate_verdict_member(object, "reason", &json::is_string, "a string").get<std::string>();
  for (const auto& check : gate_verdict_member(object, "checks", &json::is_array, "a list")) {
    said.checks.push_back(check_result_from_json(check));
  }
  for (const auto& note : gate_verdict_member(object, "notes", &json::is_array, "a list")) {
    if (!note.is_string()) malformed_gate_verdict("notes[]", "a string");
    said.notes.push_back(note.get<std::string>());
  }
  return said;
}

bool is_about(const gate_test_verdict& said, const trial_record& trial) {
  return said.trial_index == trial.trial_index && said.started_at == trial.started_at;
}

void lay_over(trial_record& trial, const gate_test_verdict& said) {
  trial.checks.insert(trial.checks.end(), said.checks.begin(), said.checks.end());
  trial.notes.insert(trial.notes.end(), said.notes.begin(), said.notes.end());
  lay_over_gate(trial, said.turned_to, said.reason);
}

}  // namespace aorta::detail
