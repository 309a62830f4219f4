#include "recipe/recipe_keys.hpp"

#include "option_text.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <string>
#include <vector>

namespace aorta::detail {
namespace {

// Probe-mode keys of the original that steer its detectors and retention; aorta has no such
// machinery, so they are accepted (recipes stay portable) and reported as ignored.
const std::vector<std::string>& ignored_probe_keys() {
  static const std::vector<std::string> keys{
      "step_time_regex",        "collect_paths",
      "custom_patterns",        "hang_window_sec", "hang_grace_period_at_start",
      "tier3_vram_growth",      "stop_after",      "disable_detectors",
      "disable_detector_tiers", "retain",          "redaction"};
  return keys;
}

const std::vector<std::string>& handled_keys() {
  static const std::vector<std::string> keys{"schema_version",
                                             "mode",
                                             "ticket",
                                             "trials",
                                             "timeout_per_trial",
                                             "timeout",
                                             "capture_exit_grace",
                                             "mitigation_axis",
                                             "diagnostic_axis",
                                             "mitigations",
                                             "diagnostics",
                                             "confound",
                                             "env_passthrough_mode",
                                             "collect",
                                             "check",
                                             "gate",
                                             "allow_empty",
                                             "measure",
                                             "environment_exit_codes",
                                             "environment_marker",
                                             "ranks",
                                             "ranks_serialized",
                                             "expect_exit"};
  return keys;
}

const std::vector<std::string>& triage_only_keys() {
  static const std::vector<std::string> keys{
      "workload", "cells", "steps", "workload_config", "save_logs", "extra_env", "trial_isolation"};
  return keys;
}

bool contains(const std::vector<std::string>& keys, std::string_view key) {
  return std::find(keys.begin(), keys.end(), key) != keys.end();
}

}  // namespace

bool is_ignored_probe_key(std::string_view key) { return contains(ignored_probe_keys(), key); }

[[noreturn]] void reject_unknown_key(const map_entry& entry) {
  if (entry.key == "condition") {
    fail_at(entry.key_at, "recipe." + entry.key,
            "`condition:` is deferred (the original aorta rejects it as \"deferred to Phase "
            "3\") and aorta does not implement it. Fix: remove the key.");
  }
  if (contains(triage_only_keys(), entry.key)) {
    fail_at(entry.key_at, "recipe." + entry.key,
            fmt::format("'{}' belongs to mode: triage, which aorta does not run (aorta runs "
                        "the command after `--` in mode: probe). Fix: remove it; the command "
                        "line says what runs.",
                        entry.key));
  }
  std::vector<std::string> allowed = handled_keys();
  allowed.insert(allowed.end(), ignored_probe_keys().begin(), ignored_probe_keys().end());
  fail_at(entry.key_at, "recipe",
          fmt::format("unknown key '{}'.{} Allowed keys: {}. Fix: rename or remove it.", entry.key,
                      did_you_mean(entry.key, allowed), join(allowed)));
}

}  // namespace aorta::detail
