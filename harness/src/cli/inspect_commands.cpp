// Commands that look at captures and results after the fact: check and report (view has its
// own file).
#include "aorta/check.hpp"
#include "aorta/collector.hpp"
#include "aorta/error.hpp"
#include "aorta/metrics.hpp"
#include "aorta/report.hpp"
#include "captures/capture_format.hpp"
#include "cli/commands.hpp"
#include "json_document.hpp"

#include <fmt/format.h>
#include <fmt/ostream.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <iostream>

namespace aorta::cli {
namespace fs = std::filesystem;
namespace {

struct check_flags {
  std::string collector;
  std::vector<std::string> checks;
  bool json = false;
  bool allow_empty = false;
  std::string path;
};

nlohmann::json metrics_json(const metric_set& metrics) {
  nlohmann::json values = nlohmann::json::object();
  // Not a structured binding: clang 14 (the fuzz build) cannot capture one in a lambda.
  for (const auto& entry : metrics.values) {
    std::visit([&](const auto& held) { values[entry.first] = held; }, entry.second);
  }
  nlohmann::json kernels = nlohmann::json::array();
  for (const auto& row : metrics.kernels) {
    kernels.push_back(
        {{"name", row.name},
         {"launches", row.launches ? nlohmann::json(*row.launches) : nlohmann::json()},
         {"total_ms", row.total_ms}});
  }
  return {{"metrics", values}, {"kernels", kernels}};
}

// The collector named by --collector, or the one the path's format gives away. A --collector
// that contradicts an unambiguous format is refused: reading an ncu CSV as a hatchet fails deep
// in a parser with a message about JSON.
std::string resolve_collector(const check_flags& flags) {
  if (!flags.collector.empty()) {
    const auto* named = find_collector(flags.collector);
    if (named == nullptr || !named->attaches()) {
      throw usage_error(fmt::format("--collector '{}' cannot be read; use one of rocprof, "
                                    "proton, ncu, callgrind",
                                    flags.collector));
    }
  }
  const auto formats = detail::detect_capture_formats(flags.path);
  std::string found;
  for (const auto& format : formats) found += (found.empty() ? "" : ", ") + format;
  if (flags.collector.empty()) {
    if (formats.size() == 1) {
      fmt::print(std::cout, "aorta: {} holds {}: reading it with --collector {}\n", flags.path,
                 detail::describe_capture_format(formats.front()), formats.front());
      return formats.front();
    }
    if (formats.empty()) {
      throw usage_error(fmt::format(
          "{}: not a capture aorta recognises (not a Proton hatchet, an ncu CSV, a rocprofv3 "
          "capture nor a callgrind.out file); name the reader with --collector",
          flags.path));
    }
    throw usage_error(fmt::format("{} holds captures of several profilers ({}); choose one with "
                                  "--collector",
                                  flags.path, found));
  }
  if (formats.size() == 1 && formats.front() != flags.collector) {
    throw usage_error(fmt::format("{}: not {}: it looks like {}; use --collector {} (or omit "
                                  "--collector)",
                                  flags.path, detail::describe_capture_format(flags.collector),
                                  detail::describe_capture_format(formats.front()),
                                  formats.front()));
  }
  return flags.collector;
}

int run_check(const check_flags& flags) {
  std::vector<check_expression> checks;
  for (const auto& text : flags.checks) checks.push_back(check_expression::parse(text));
  if (!fs::exists(flags.path)) {
    throw usage_error(fmt::format("{}: no such file or directory", flags.path));
  }
  const auto* collector = find_collector(resolve_collector(flags));
  const std::vector<capture> captures{collector->read_capture(flags.path, {})};
  const metric_set metrics = compute_metrics(captures.front());

  std::vector<check_result> results;
  bool all_passed = true;
  for (const auto& check : checks) {
    results.push_back(evaluate_check(check, captures, metrics));
    all_passed = all_passed && results.back().passed;
  }
  const bool empty_failure = captures.front().empty() && !flags.allow_empty;

  if (flags.json) {
    nlohmann::json report = metrics_json(metrics);
    report["empty"] = captures.front().empty();
    report["notes"] = captures.front().notes;
    report["checks"] = nlohmann::json::array();
    for (const auto& result : results) {
      report["checks"].push_back({{"expression", result.expression},
                                  {"passed", result.passed},
                                  {"expected", result.expected},
                                  {"actual", result.actual},
                                  {"message", result.message}});
    }
    std::cout << detail::document_text(detail::stamped(std::move(report), schemas::check));
  } else {
    // Check lines first, as `sweep run` prints them: they are what the reader came for.
    for (const auto& result : results) {
      if (result.passed) {
        fmt::print(std::cout, "check PASS  {}  (actual {})\n", result.expression, result.actual);
      } else {
        fmt::print(std::cout, "check FAIL  {}\n{}\n", result.expression, result.message);
      }
    }
    std::cout << format_metrics_table(metrics);
    for (const auto& note : captures.front().notes) fmt::print(std::cout, "note: {}\n", note);
  }
  if (empty_failure) {
    fmt::print(std::cerr,
               "aorta: empty capture: {} holds no kernel, scope or function data (pass "
               "--allow-empty if that is expected)\n",
               flags.path);
    return static_cast<int>(exit_code::failed);
  }
  return all_passed ? 0 : static_cast<int>(exit_code::failed);
}

}  // namespace

void add_check_command(CLI::App& app, action& selected) {
  auto* check = app.add_subcommand("check", "Post-check an existing capture (file or directory)");
  auto flags = std::make_shared<check_flags>();
  check->add_option("--collector", flags->collector,
                    "rocprof, proton, ncu or callgrind (default: detected from the files)");
  check->add_option("--check", flags->checks, "A check expression (repeatable)");
  check->add_flag("--json", flags->json, "Print metrics and check results as JSON");
  check->add_flag("--allow-empty", flags->allow_empty, "An empty capture is not a failure");
  check->add_option("path", flags->path, "Capture file or directory")->required();
  check->callback([&selected, flags] { selected = [flags] { return run_check(*flags); }; });
}

void add_report_command(CLI::App& app, action& selected) {
  auto* report = app.add_subcommand(
      "report", "Aggregate every result.json below DIR into perf.md, matrix.json, report.html");
  auto dir = std::make_shared<std::string>();
  auto begin = std::make_shared<bool>(false);
  report->add_option("dir", *dir, "Results directory")->required();
  report->add_flag("--begin-run", *begin,
                   "Mark the start of a run: later reports leave older results out as stale");
  report->callback([&selected, dir, begin] {
    selected = [dir, begin] {
      if (*begin) {
        const std::string started = begin_report_run(*dir);
        fmt::print(std::cout, "report: run started {}; results in {} older than that will be marked "
                   "stale\n",
                   started, *dir);
        return 0;
      }
      const auto summary = write_aggregate_report(*dir);
      std::cout << summary.to_string() << '\n';
      return 0;
    };
  });
}

}  // namespace aorta::cli
