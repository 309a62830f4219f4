// `aorta baseline record|show`: baselines in, tables out
// (docs/regression-gate.md).
#include "aorta/error.hpp"
#include "aorta/launch_plan.hpp"
#include "baseline/baseline_file.hpp"
#include "baseline/calibration.hpp"
#include "cells/confound.hpp"
#include "baseline/card_identity.hpp"
#include "baseline/gate_judge.hpp"
#include "baseline/gate_report.hpp"
#include "baseline/gate_rule.hpp"
#include "baseline/default_gate.hpp"
#include "baseline/result_sets.hpp"
#include "baseline/statistics.hpp"
#include "cli/baseline_record.hpp"
#include "cli/commands.hpp"
#include "cli/option_checks.hpp"
#include "metrics/number_format.hpp"
#include "collectors/collector_support.hpp"
#include "contained_path.hpp"
#include "json_document.hpp"
#include "json_text.hpp"
#include "utc_timestamp.hpp"

#include <fmt/format.h>
#include <fmt/ostream.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <iostream>
#include <memory>
#include <optional>
#include <set>

namespace aorta::cli {
namespace fs = std::filesystem;
namespace {

std::string joined(const std::vector<std::string>& words) {
  std::string text;
  for (const auto& word : words) text += (text.empty() ? "" : " ") + word;
  return text;
}

// A path as the baseline file records it: relative to the baseline directory when both lie under
// one root, so re-recording from another clone or build directory does not rewrite it.
std::string relative_to_baselines(const fs::path& into, const std::string& path) {
  if (path.empty()) return path;
  const fs::path base = fs::absolute(into).lexically_normal();
  const fs::path relative = fs::absolute(path).lexically_normal().lexically_relative(base);
  return relative.empty() ? path : relative.generic_string();
}

// The recording command as run from the baseline directory: each path relative to it.
std::string recording_command(const record_flags& flags) {
  std::vector<std::string> words{"aorta", "baseline", "record"};
  for (const auto& r : flags.results) words.push_back(relative_to_baselines(flags.into, r));
  words.insert(words.end(), {"--into", "."});
  if (!flags.test_name.empty()) words.insert(words.end(), {"--test-name", flags.test_name});
  return joined(words);
}

std::vector<std::string> portable_command(const fs::path& into, std::vector<std::string> command) {
  if (!command.empty() && fs::path(command.front()).is_absolute()) {
    command.front() = relative_to_baselines(into, command.front());
  }
  return command;
}

}  // namespace

int record_baselines(const record_flags& flags) {
  const fs::path into = flags.into;
  if (!flags.test_name.empty()) (void)detail::contained_path(into, flags.test_name, "--test-name");
  const auto commit = detail::first_output_line({"git", "-C", fs::absolute(into).parent_path().string(),
                                                 "rev-parse", "HEAD"},
                                                current_environment());
  int written = 0;
  for (const auto& results : flags.results) {
    std::error_code ec;
    if (flags.skip_missing && !fs::exists(results, ec)) {
      fmt::print(std::cout, "aorta: baseline: {} does not exist; skipped (--skip-missing)\n", results);
      continue;
    }
    const auto tests = detail::read_result_trees(results);
    if (!flags.test_name.empty() && tests.size() != 1) {
      throw usage_error(fmt::format("--test-name names one test, but {} holds {}; record them "
                                    "one by one",
                                    results, tests.size()));
    }
    for (const auto& [found_name, trials] : tests) {
      const std::string test = flags.test_name.empty() ? found_name : flags.test_name;
      auto measured = detail::measured_from_records(test, trials);
      if (measured.trials.empty()) {
        const std::string why = fmt::format("{}: test '{}' has no trial that ran to the end (all "
                                            "skipped or errored), so there is nothing to record",
                                            results, test);
        if (flags.skip_missing) {
          fmt::print(std::cout, "aorta: baseline: {}; skipped\n", why);
          continue;
        }
        throw error(exit_code::failed, why);
      }
      if (measured.trials.size() < flags.min_trials && detail::has_timed_quantities(measured)) {
        throw error(exit_code::failed,
                    fmt::format("{}: test '{}' has {} trial(s) and timed rows (kernel times, scope "
                                "cycles); the gate needs at least {} trials of a timed row, 5-10 "
                                "to detect a 10% change at a few % noise. Fix: run it again with "
                                "--trials 5 (CMake: TRIALS 5) and record that (--min-trials 1 "
                                "records it anyway; its timed rows then judge nothing)",
                                results, test, measured.trials.size(), detail::min_timed_samples));
      }
      measured.provenance = {{"recorded_at", detail::utc_timestamp()},
                             {"recorded_by", recording_command(flags)},
                             {"results", relative_to_baselines(into, results)},
                             {"payload_command", portable_command(into, trials.front().command)},
                             {"recipe", relative_to_baselines(into, trials.front().recipe_path)},
                             {"aorta_version", trials.front().aorta_version},
                             {"git_commit", commit ? nlohmann::json(*commit) : nlohmann::json(nullptr)}};
      const fs::path file = detail::baseline_path(into, test);
      std::string previous;
      try {
        if (const auto old = detail::load_baseline(file, test)) {
          const auto when = old->provenance.find("recorded_at");
          previous = fmt::format(" (replaces {} trial(s) recorded {})", old->trials.size(),
                                 when != old->provenance.end() && when->is_string()
                                     ? when->get<std::string>()
                                     : std::string("at an unknown time"));
        }
      } catch (const error&) {
        previous = " (replaces an unreadable file)";
      }
      detail::write_baseline(file, measured);
      std::size_t kernels = 0;
      for (const auto& trial : measured.trials) kernels = std::max(kernels, trial.kernels.size());
      fmt::print(std::cout, "aorta: baseline {}: {} trial(s), {} kernel(s), {} metric(s){}\n", file.string(),
                 measured.trials.size(), kernels, measured.trials.front().metrics.size(), previous);
      ++written;
    }
  }
  fmt::print(std::cout, "aorta: {} baseline file(s) written; review the change with `git diff -- {}`\n",
             written, flags.into);
  return 0;
}

namespace {

void print_series(std::string_view label, const std::vector<double>& values) {
  if (values.empty()) return;
  const auto s = detail::summarize_samples(values);
  fmt::print(std::cout, "  {:<48} median {:>12}  q1 {:>12}  q3 {:>12}  min {:>12}  n {}\n", label,
             detail::format_number(s.median), detail::format_number(s.q1),
             detail::format_number(s.q3), detail::format_number(s.min), s.n);
}

// A provenance value as a reader wants it: a string as is, an argv as words, null as unknown.
std::string provenance_text(const nlohmann::json& value) {
  if (value.is_string()) return value.get<std::string>();
  if (value.is_null()) return "(unknown)";
  const bool words = value.is_array() && std::all_of(value.begin(), value.end(),
                                                     [](const auto& item) { return item.is_string(); });
  if (!words) return detail::dump_json(value);
  std::string joined;
  for (const auto& item : value) joined += (joined.empty() ? "" : " ") + item.get<std::string>();
  return joined;
}

int show_baselines(const std::string& path) {
  for (const auto& [name, test] : detail::load_measured(path)) {
    fmt::print(std::cout, "test {} ({} trial(s))\n", name, test.trials.size());
    for (const auto& [key, value] : test.fingerprint) fmt::print(std::cout, "  fingerprint {}: {}\n", key, value);
    // One line per key, as the fingerprint: a raw JSON line hid the record command in escapes.
    if (test.provenance.is_object()) {
      for (const auto& [key, value] : test.provenance.items()) {
        fmt::print(std::cout, "  provenance {}: {}\n", key, provenance_text(value));
      }
    } else if (!test.provenance.empty()) {
      fmt::print(std::cout, "  provenance {}\n", detail::dump_json(test.provenance));
    }
    std::set<std::string> kernels;
    std::set<std::string> metrics;
    for (const auto& trial : test.trials) {
      for (const auto& [kernel, sample] : trial.kernels) kernels.insert(kernel);
      for (const auto& [metric, value] : trial.metrics) metrics.insert(metric);
    }
    for (const auto& kernel : kernels) {
      std::vector<double> times;
      std::vector<double> launches;
      for (const auto& trial : test.trials) {
        const auto found = trial.kernels.find(kernel);
        if (found == trial.kernels.end()) continue;
        if (std::isfinite(found->second.time_ms)) times.push_back(found->second.time_ms);
        if (found->second.launches) launches.push_back(*found->second.launches);
      }
      print_series(fmt::format("time_ms({})", kernel), times);
      if (const auto noise = detail::describe_noise(times, kernels.size())) {
        fmt::print(std::cout, "    {}\n", *noise);
      }
      print_series(fmt::format("count({})", kernel), launches);
    }
    for (const auto& metric : metrics) {
      std::vector<double> values;
      for (const auto& trial : test.trials) {
        if (const auto found = trial.metrics.find(metric); found != trial.metrics.end()) {
          values.push_back(found->second);
        }
      }
      print_series(metric, values);
    }
  }
  return 0;
}

}  // namespace

void add_baseline_command(CLI::App& app, action& selected) {
  auto* baseline = app.add_subcommand("baseline", "Record and show regression-gate baselines");
  baseline->require_subcommand(1);
  auto* record = baseline->add_subcommand(
      "record", "aorta baseline record RESULTS... --into DIR: one DIR/<test>.json per test found "
                "in sweep outputs or a CTest aorta-results root (an update is a git diff)");
  auto flags = std::make_shared<record_flags>();
  record->add_option("results", flags->results, "Sweep output directories or results roots")
      ->required();
  record->add_option("--into", flags->into, "Baseline directory")->required();
  record->add_option("--test-name", flags->test_name,
                     "Record the one test found under this name (default: its directory's name)");
  record->add_option("--min-trials", flags->min_trials,
                     "Refuse tests with kernel times or scope cycles and fewer trials, 1 to "
                     "10000 (default 3)")
      ->check(CLI::Range(1, 10000).description(""));
  record->add_flag("--skip-missing", flags->skip_missing,
                   "Skip (with a note) results that do not exist or never ran, instead of failing");
  record->callback([&selected, flags, &app] {
    selected = [flags, &app] {
      (void)app;
      return record_baselines(*flags);
    };
  });
  auto* show = baseline->add_subcommand("show", "aorta baseline show FILE|DIR: per test the "
                                                "fingerprint, provenance and every summary");
  auto path = std::make_shared<std::string>();
  show->add_option("path", *path, "A baseline file or directory")->required();
  show->callback([&selected, path] { selected = [path] { return show_baselines(*path); }; });
}

}  // namespace aorta::cli
