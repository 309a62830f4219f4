// Commands that look at captures and results after the fact: check, view, report.
#include "aorta/check.hpp"
#include "aorta/collector.hpp"
#include "aorta/error.hpp"
#include "aorta/metrics.hpp"
#include "aorta/report.hpp"
#include "aorta/tree_view.hpp"
#include "cli/commands.hpp"
#include "json_text.hpp"

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

int run_check(const check_flags& flags) {
  const auto* collector = find_collector(flags.collector);
  if (collector == nullptr || !collector->attaches()) {
    throw usage_error(fmt::format("--collector '{}' cannot be read; use one of rocprof, proton, "
                                  "ncu, callgrind",
                                  flags.collector));
  }
  std::vector<check_expression> checks;
  for (const auto& text : flags.checks) checks.push_back(check_expression::parse(text));
  if (!fs::exists(flags.path)) {
    throw usage_error(fmt::format("{}: no such file or directory", flags.path));
  }
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
    std::cout << detail::dump_json(report, 2) << '\n';
  } else {
    std::cout << format_metrics_table(metrics);
    for (const auto& note : captures.front().notes) fmt::print(std::cout, "note: {}\n", note);
    for (const auto& result : results) {
      if (result.passed) {
        fmt::print(std::cout, "check PASS  {}  (actual {})\n", result.expression, result.actual);
      } else {
        fmt::print(std::cout, "check FAIL  {}\n{}\n", result.expression, result.message);
      }
    }
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
  check->add_option("--collector", flags->collector, "rocprof, proton, ncu or callgrind")
      ->required();
  check->add_option("--check", flags->checks, "A check expression (repeatable)");
  check->add_flag("--json", flags->json, "Print metrics and check results as JSON");
  check->add_flag("--allow-empty", flags->allow_empty, "An empty capture is not a failure");
  check->add_option("path", flags->path, "Capture file or directory")->required();
  check->callback([&selected, flags] { selected = [flags] { return run_check(*flags); }; });
}

void add_view_command(CLI::App& app, action& selected) {
  auto* view = app.add_subcommand("view", "Print a Proton hatchet tree (no Python needed)");
  auto path = std::make_shared<std::string>();
  auto metric = std::make_shared<std::string>();
  view->add_option("path", *path, "A .hatchet file")->required();
  view->add_option("-m,--metric", *metric,
                   "time/ns, time/us, time/ms, time/s, count, cycles or normalized_cycles");
  view->callback([&selected, path, metric] {
    selected = [path, metric] {
      render_hatchet_tree(*path, *metric, std::cout);
      return 0;
    };
  });
}

void add_report_command(CLI::App& app, action& selected) {
  auto* report = app.add_subcommand("report", "Aggregate every result.json below DIR");
  auto dir = std::make_shared<std::string>();
  report->add_option("dir", *dir, "Results directory")->required();
  report->callback([&selected, dir] {
    selected = [dir] {
      if (!fs::is_directory(*dir)) {
        throw usage_error(fmt::format("{}: not a directory", *dir));
      }
      const auto summary = write_aggregate_report(*dir);
      std::cout << summary.to_string() << '\n';
      return 0;
    };
  });
}

}  // namespace aorta::cli
