// Top-level recipe keys: defaults, accepted spellings, and every refusal's location and wording.
#include "aorta/recipe.hpp"

#include "option_test_support.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

namespace {

using aorta::load_recipe_from_string;
using aorta::recipe_error;
using aorta::testing_support::thrown;
using ::testing::HasSubstr;
using ::testing::StartsWith;
using strings = std::vector<std::string>;

aorta::recipe load(const std::string& text) {
  return load_recipe_from_string(text, "recipe.yaml");
}

strings texts(const std::vector<aorta::axis_item>& axis) {
  strings out;
  for (const auto& item : axis) out.push_back(item.text);
  return out;
}

std::string failure(const std::string& text) {
  const auto e = thrown<recipe_error>([&] { (void)load(text); });
  return e ? e->what() : std::string{};
}

TEST(Recipe, MinimalRecipeTakesEveryDefault) {
  const auto r = load("schema_version: 1\n");
  EXPECT_EQ(r.schema_version, 1);
  EXPECT_EQ(r.mode, "probe");
  EXPECT_EQ(r.ticket, "");
  EXPECT_EQ(r.trials, 1);
  EXPECT_FALSE(r.timeout_seconds);
  EXPECT_EQ(texts(r.mitigation_axis), strings{"none"});
  EXPECT_EQ(texts(r.diagnostic_axis), strings{"none"});
  EXPECT_EQ(r.env_passthrough_mode, "inherit");
  EXPECT_TRUE(r.collect.empty());
  EXPECT_TRUE(r.checks.empty());
  EXPECT_FALSE(r.allow_empty);
  EXPECT_TRUE(r.environment_exit_codes.empty());
  EXPECT_EQ(r.expect_exit, 0);
  EXPECT_TRUE(r.ignored_keys.empty());
  EXPECT_EQ(r.path, "recipe.yaml");
}

TEST(Recipe, SchemaVersionMustBeTheInteger1) {
  EXPECT_THAT(failure("mode: probe\n"),
              StartsWith("recipe.yaml:1:1: recipe.schema_version: is missing"));
  EXPECT_THAT(failure("schema_version: 2\n"),
              StartsWith("recipe.yaml:1:17: recipe.schema_version: expected an integer from 1 "
                         "to 1, got '2'"));
  EXPECT_THAT(failure("schema_version: \"1\"\n"),
              HasSubstr("got the string \"1\". Fix: write a bare number without quotes."));
  EXPECT_THAT(failure("schema_version: 1.0\n"), HasSubstr("got '1.0'"));
}

TEST(Recipe, ModeProbeOnly) {
  EXPECT_EQ(load("schema_version: 1\nmode: probe\n").mode, "probe");
  for (const std::string mode : {"triage", "sanitizer"}) {
    const std::string message = failure("schema_version: 1\nmode: " + mode + "\n");
    EXPECT_THAT(message,
                StartsWith("recipe.yaml:2:7: recipe.mode: '" + mode + "' is not supported"));
    EXPECT_THAT(message, HasSubstr("aorta runs the command"));
    EXPECT_THAT(message, HasSubstr("Fix: use `mode: probe`"));
  }
  EXPECT_THAT(failure("schema_version: 1\nmode: fast\n"),
              HasSubstr("'fast' is not a recipe mode; allowed: probe."));
}

TEST(Recipe, TicketTrialsAndTimeouts) {
  const auto r = load("schema_version: 1\nticket: PERF-12\ntrials: 3\ntimeout_per_trial: 1800\n");
  EXPECT_EQ(r.ticket, "PERF-12");
  EXPECT_EQ(r.trials, 3);
  EXPECT_EQ(r.timeout_seconds, 1800.0);
  EXPECT_EQ(load("schema_version: 1\ntimeout: 2.5\n").timeout_seconds, 2.5);
  EXPECT_EQ(load("schema_version: 1\ntimeout: 60\ntimeout_per_trial: 60.0\n").timeout_seconds,
            60.0);
  EXPECT_THAT(failure("schema_version: 1\ntimeout: 60\ntimeout_per_trial: 90\n"),
              StartsWith("recipe.yaml:3:20: recipe.timeout_per_trial: 90 s disagrees with "
                         "timeout: 60 s at recipe.yaml:2:10."));
  for (const std::string bad : {"0", "-5", "\"60\"", "ten", ".inf"}) {
    EXPECT_THAT(failure("schema_version: 1\ntimeout: " + bad + "\n"),
                StartsWith("recipe.yaml:2:10: recipe.timeout: expected a number of seconds > 0"))
        << bad;
  }
  EXPECT_THAT(failure("schema_version: 1\ntrials: 0\n"),
              StartsWith("recipe.yaml:2:9: recipe.trials: expected an integer from 1 to"));
  EXPECT_THAT(failure("schema_version: 1\ntrials:\n"),
              StartsWith("recipe.yaml:2:1: recipe.trials: expected an integer from 1 to 1000000, "
                         "got nothing."));
}

TEST(Recipe, AxesAreNonEmptyListsOfStrings) {
  const auto r = load("schema_version: 1\nmitigation_axis: [none, no_hipblaslt]\n"
                      "diagnostic_axis:\n  - none\n  - trace\n"
                      "mitigations: {no_hipblaslt: {env: {USE_HIPBLASLT: 0}}}\n"
                      "diagnostics: {trace: [callgrind]}\n");
  EXPECT_EQ(texts(r.mitigation_axis), (strings{"none", "no_hipblaslt"}));
  EXPECT_EQ(texts(r.diagnostic_axis), (strings{"none", "trace"}));
  EXPECT_THAT(failure("schema_version: 1\nmitigation_axis: []\n"),
              StartsWith("recipe.yaml:2:18: recipe.mitigation_axis: is an empty list"));
  EXPECT_THAT(failure("schema_version: 1\ndiagnostic_axis: none\n"),
              HasSubstr("recipe.diagnostic_axis: expected a non-empty list of strings, got "
                        "'none'."));
  EXPECT_THAT(failure("schema_version: 1\nmitigation_axis: [none, {a: 1}]\n"),
              StartsWith("recipe.yaml:2:25: recipe.mitigation_axis[1]: expected a non-blank "
                         "string, got a mapping."));
}

TEST(Recipe, EnvPassthroughMode) {
  EXPECT_EQ(load("schema_version: 1\nenv_passthrough_mode: file\n").env_passthrough_mode, "file");
  EXPECT_THAT(failure("schema_version: 1\nenv_passthrough_mode: inheirt\n"),
              HasSubstr("'inheirt' is not an env passthrough mode; allowed: inherit, file."));
  EXPECT_THAT(failure("schema_version: 1\nenv_passthrough_mode: inheirt\n"),
              HasSubstr("Did you mean 'inherit'?"));
}

TEST(Recipe, ChecksKeepTheirLocations) {
  const auto r = load("schema_version: 1\ncheck:\n  - count(add_kernel) == 20\n"
                      "  - \"proton_gpu_time_ms < 5\"\n");
  ASSERT_EQ(r.checks.size(), 2u);
  EXPECT_EQ(r.checks[0].expression, "count(add_kernel) == 20");
  EXPECT_EQ(r.checks[0].where.to_string(), "recipe.yaml:3:5");
  EXPECT_EQ(r.checks[1].expression, "proton_gpu_time_ms < 5");
  EXPECT_EQ(r.checks[1].where.to_string(), "recipe.yaml:4:5");
  const auto single = load("schema_version: 1\ncheck: top_kernel ~ gemm\n");
  ASSERT_EQ(single.checks.size(), 1u);
  EXPECT_EQ(single.checks[0].expression, "top_kernel ~ gemm");
  EXPECT_EQ(single.checks[0].where.to_string(), "recipe.yaml:2:8");
  EXPECT_THAT(failure("schema_version: 1\ncheck: [\"  \"]\n"),
              StartsWith("recipe.yaml:2:9: recipe.check[0]: expected a non-blank string"));
}

TEST(Recipe, AllowEmptyExitCodes) {
  const auto r = load("schema_version: 1\nallow_empty: true\nenvironment_exit_codes: [2, 3, 2]\n"
                      "expect_exit: 4\n");
  EXPECT_TRUE(r.allow_empty);
  EXPECT_EQ(r.environment_exit_codes, (std::vector<int>{2, 3}));
  EXPECT_EQ(r.expect_exit, 4);
  EXPECT_EQ(load("schema_version: 1\nenvironment_exit_codes: 2\n").environment_exit_codes,
            std::vector<int>{2});
  EXPECT_TRUE(load("schema_version: 1\nallow_empty: \"yes\"\n").allow_empty);
  EXPECT_THAT(failure("schema_version: 1\nallow_empty: sometimes\n"),
              HasSubstr("recipe.allow_empty: expected a boolean, got 'sometimes'"));
  EXPECT_THAT(failure("schema_version: 1\nenvironment_exit_codes: [2, 0]\n"),
              StartsWith("recipe.yaml:2:29: recipe.environment_exit_codes[1]: 0 cannot mean"));
  EXPECT_THAT(failure("schema_version: 1\nenvironment_exit_codes: 256\n"),
              HasSubstr("expected an integer from 1 to 255, got '256'"));
  EXPECT_THAT(failure("schema_version: 1\nexpect_exit: 300\n"),
              StartsWith("recipe.yaml:2:14: recipe.expect_exit: expected an integer from 0 to "
                         "255, got '300'"));
  EXPECT_THAT(failure("schema_version: 1\nexpect_exit: 2\nenvironment_exit_codes: [2]\n"),
              HasSubstr("recipe.expect_exit: 2 is also listed in environment_exit_codes"));
}

TEST(Recipe, EnvironmentMarkerIsARegex) {
  EXPECT_FALSE(load("schema_version: 1\n").environment_marker.has_value());
  EXPECT_EQ(load("schema_version: 1\nenvironment_marker: \"refusing to run|cannot import\"\n")
                .environment_marker,
            std::optional<std::string>("refusing to run|cannot import"));
  EXPECT_THAT(failure("schema_version: 1\nenvironment_marker: \"no GPU (\"\n"),
              StartsWith("recipe.yaml:2:21: recipe.environment_marker: 'no GPU (' is not a regex "
                         "aorta accepts"));
}

TEST(Recipe, OriginalProbeKeysAreAcceptedAndListedAsIgnored) {
  const auto r = load("schema_version: 1\nstep_time_regex: 'step (\\d+)'\n"
                      "stop_after: {events: 1, max_trials: 3}\nretain: {on_pass: none}\n"
                      "hang_window_sec: 60\n");
  EXPECT_EQ(r.ignored_keys,
            (strings{"step_time_regex", "stop_after", "retain", "hang_window_sec"}));
}

TEST(Recipe, TriageKeysAndConditionAreRefused) {
  const std::string workload = failure("schema_version: 1\nworkload: gemm\n");
  EXPECT_THAT(workload, StartsWith("recipe.yaml:2:1: recipe.workload: 'workload' belongs to "
                                   "mode: triage, which aorta does not run"));
  EXPECT_THAT(failure("schema_version: 1\ncells: []\n"), HasSubstr("belongs to mode: triage"));
  EXPECT_THAT(failure("schema_version: 1\ncondition: x\n"),
              StartsWith("recipe.yaml:2:1: recipe.condition: `condition:` is deferred"));
}

TEST(Recipe, UnknownKeyNamesLocationSuggestionAndAllowedKeys) {
  const std::string message = failure("schema_version: 1\nmode: probe\n  \ntrails: 3\n");
  EXPECT_THAT(message, StartsWith("recipe.yaml:4:1: recipe: unknown key 'trails'. Did you mean "
                                  "'trials'? Allowed keys: schema_version, mode, ticket, trials,"));
  EXPECT_THAT(message, HasSubstr("expect_exit, step_time_regex"));
  EXPECT_THAT(message, HasSubstr("Fix: rename or remove it."));
}

TEST(Recipe, StructuralErrors) {
  EXPECT_THAT(failure(""), StartsWith("recipe.yaml: recipe: is empty."));
  EXPECT_THAT(failure("- a\n- b\n"),
              StartsWith("recipe.yaml:1:1: recipe: expected a mapping of keys at the top level, "
                         "got a list."));
  EXPECT_THAT(failure("schema_version: 1\ntrials: 1\ntrials: 2\n"),
              StartsWith("recipe.yaml:3:1: recipe: key 'trials' appears twice (first on line 2)."));
  const std::string syntax = failure("schema_version: 1\ncollect: [rocprof\n");
  EXPECT_THAT(syntax, StartsWith("recipe.yaml:"));
  EXPECT_THAT(syntax, HasSubstr("recipe: is not valid YAML"));
}

TEST(Recipe, LoadsFilesAndReportsUnreadableOnes) {
  const auto dir = std::filesystem::temp_directory_path() / "aorta_recipe_test";
  std::filesystem::create_directories(dir);
  const auto path = dir / "r.yaml";
  std::ofstream(path) << "schema_version: 1\ntrials: 0\n";
  const auto e = thrown<recipe_error>([&] { (void)aorta::load_recipe(path); });
  ASSERT_TRUE(e);
  EXPECT_THAT(e->what(), StartsWith(path.string() + ":2:9: recipe.trials:"));
  std::ofstream(path) << "schema_version: 1\ntrials: 2\n";
  const auto r = aorta::load_recipe(path);
  EXPECT_EQ(r.trials, 2);
  EXPECT_EQ(r.path, path);
  const auto missing = thrown<recipe_error>([&] { (void)aorta::load_recipe(dir / "absent.yaml"); });
  ASSERT_TRUE(missing);
  EXPECT_THAT(missing->what(), HasSubstr("absent.yaml: cannot read the recipe"));
  std::filesystem::remove_all(dir);
}

}  // namespace
