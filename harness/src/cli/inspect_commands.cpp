// Commands that look at captures and results after the fact: check and report (view has its
// own file).
#include "aorta/check.hpp"
#include "aorta/collector.hpp"
#include "aorta/error.hpp"
#include "aorta/metrics.hpp"
#include "aorta/report.hpp"
#include "aorta/sweep.hpp"
#include "cli/check_scope.hpp"
#include "cli/commands.hpp"
#include "collectors/capture_reading.hpp"
#include "collectors/format_detection.hpp"
#include "evaluation/capture_evaluation.hpp"
#include "json_document.hpp"
#include "json_text.hpp"
#include "metrics/metrics_table.hpp"
#include "option_text.hpp"
#include "process/signal_forwarding.hpp"
#include "record/result_writer.hpp"
#include "record/verdict_rules.hpp"
#include "reporting/console_reporter.hpp"
#include "reporting/event_recorder.hpp"
#include "sweep/checked_recipe.hpp"

#include <fmt/format.h>
#include <fmt/ostream.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <sstream>
#include <iostream>

namespace aorta::cli {
namespace fs = std::filesystem;
namespace {

struct check_flags {
  std::string collector;
  std::string recipe;
  std::vector<std::string> checks;
  bool json = false;
  bool allow_empty = false;
  bool aggregate = false;
  std::string path;
};

// The collector named by --collector, or the one the path's format gives away. A --collector
// that contradicts an unambiguous format is refused: reading an ncu CSV as a hatchet fails deep
// in a parser with a message about JSON.
// Every format `check` recognises, from the registry: "a rocprofv3 capture (...); an ncu CSV; ...".
std::string recognised_formats() {
  std::vector<std::string> listed;
  for (const auto* collector : collectors()) {
    if (collector->attaches()) listed.push_back(collector->format_description());
  }
  return fmt::format("none of: {}", fmt::join(listed, "; "));
}

bool empty_directory(const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::is_directory(path, ec)) return false;
  const std::filesystem::directory_iterator first(path, ec);
  return !ec && first == std::filesystem::directory_iterator();  // unreadable is not empty
}

std::string resolve_collector(const check_flags& flags) {
  if (!flags.collector.empty()) {
    const auto* named = find_collector(flags.collector);
    if (named == nullptr || !named->attaches()) {
      std::vector<std::string> readable;
      for (const auto* collector : collectors()) {
        if (collector->attaches()) readable.emplace_back(collector->name());
      }
      throw usage_error(fmt::format("--collector '{}' cannot be read; use one of {}.{}",
                                    flags.collector, fmt::join(readable, ", "),
                                    detail::did_you_mean(flags.collector, readable)));
    }
  }
  const auto formats = detail::detect_capture_formats(flags.path);
  std::string found;
  for (const auto& format : formats) found += (found.empty() ? "" : ", ") + format;
  if (flags.collector.empty()) {
    if (formats.size() == 1) {
      // On stderr: stdout may be --json.
      fmt::print(std::cerr, "aorta: {} holds {}: reading it with --collector {}\n", flags.path,
                 detail::describe_capture_format(formats.front()), formats.front());
      return formats.front();
    }
    if (formats.empty() && empty_directory(flags.path)) {
      // Naming a reader would not help: there is nothing to read, whatever it is.
      throw usage_error(fmt::format(
          "{}: an empty directory, no capture to read. A run writes its captures to "
          "OUTPUT/trial_N/COLLECTOR/ (e.g. out/trial_0/callgrind): give aorta check one of those "
          "or a capture file",
          flags.path));
    }
    if (formats.empty()) {
      throw usage_error(fmt::format(
          "{}: not a capture aorta recognises ({}); name the reader with --collector",
          flags.path, recognised_formats()));
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

// The collector's options (a recipe's, so a pinned Proton backend reads as it ran) and its checks.
struct check_plan {
  collector_request request;
  std::vector<check_expression> checks;
  bool allow_empty = false;
};

check_plan plan_check(const check_flags& flags) {
  check_plan plan;
  plan.allow_empty = flags.allow_empty;
  std::optional<recipe> spec;
  std::vector<check_expression> recipe_checks;
  if (!flags.recipe.empty()) {
    sweep_request as_run;
    as_run.recipe_path = flags.recipe;
    auto checked = detail::check_recipe(as_run);
    spec = std::move(checked.spec);
    recipe_checks = std::move(checked.checks);
  }
  for (const auto& text : flags.checks) {
    plan.checks.push_back(check_expression::parse(text));
    if (plan.checks.back().cell()) {
      throw usage_error(fmt::format("--check '{}' names a cell: a cell-addressed check compares "
                                    "the cells of one `aorta sweep run`, not one capture. Fix: "
                                    "drop '@{}' here",
                                    text, *plan.checks.back().cell()));
    }
  }
  if (!fs::exists(flags.path)) {
    throw usage_error(fmt::format("{}: no such file or directory", flags.path));
  }
  plan.request.name = resolve_collector(flags);
  require_one_capture(flags.path, plan.request.name, flags.aggregate);
  if (spec) {
    const auto in_recipe = std::find_if(spec->collect.begin(), spec->collect.end(),
                                        [&](const auto& r) { return r.name == plan.request.name; });
    if (in_recipe == spec->collect.end()) {
      throw usage_error(fmt::format("{} does not collect with {}; its collectors are not the "
                                    "capture's. Fix: pass the recipe that made {}",
                                    flags.recipe, plan.request.name, flags.path));
    }
    plan.request = *in_recipe;
    plan.checks.insert(plan.checks.end(), recipe_checks.begin(), recipe_checks.end());
    plan.allow_empty = plan.allow_empty || spec->allow_empty;
  }
  plan.request.config = config_of(plan.request);
  return plan;
}

int run_check(const check_flags& flags) {
  const check_plan plan = plan_check(flags);
  // Caught, not fatal, for the whole check, as in a sweep: a rocpd read stops within a few
  // thousand SQLite steps (its view may be an endless query), other reads are bounded, and then
  // the check ends with 128 + the signal, printing no verdict when the read was interrupted.
  detail::signal_forwarding interrupts;
  trial_record record;
  record.aorta_version = AORTA_VERSION;
  record.recipe_path = flags.recipe;
  record.collectors = {plan.request.name};
  detail::record_pass(record);
  std::vector<capture> captures;
  // No kernel rows in the metrics while checking: --json writes them from the capture's kernels,
  // the table moves the names into rows after the checks. Made at once, rows and capture held
  // every name twice (80,000 kernels: a third of the check's peak memory). An empty capture fails
  // here, before the checks, as in a sweep: both then give the empty capture as the reason.
  detail::read_captures({detail::capture_source{&plan.request, flags.path}}, {},
                        plan.allow_empty, record, captures,
                        detail::checks_need_frames(plan.checks), kernel_rows::deferred);
  if (const int signal_number = interrupts.take_first_pending(); signal_number != 0) {
    fmt::print(std::cerr, "aorta: interrupted by {} while reading {}: nothing was judged\n",
               detail::signal_label(signal_number), flags.path);
    return 128 + signal_number;
  }
  // An unreadable capture is an error of `check` itself, as the readers report it.
  if (captures.empty()) throw capture_error(record.reason);
  const bool empty_failure = captures.front().empty() && !plan.allow_empty;

  // Held until the read is known to be the one reported: --json prints no check lines.
  reporting::event_recorder check_lines;
  // A check that reads ranks sees the capture as one rank holding it: the captures move there
  // (a copy of 80,000 kernels cost a tenth of the check and a third of its peak) and every step
  // after the checks reads them from that rank.
  std::vector<rank_captures> ranks;
  if (std::any_of(plan.checks.begin(), plan.checks.end(), [](const check_expression& check) {
        return check.over_ranks() != rank_reduction::none;
      }))
    ranks.push_back(rank_captures{0, {}, {}, std::move(captures), {}, {}});
  std::vector<capture>& judged = ranks.empty() ? captures : ranks.front().captures;
  detail::evaluate_checks(plan.checks, judged, ranks, record, check_lines);
  if (flags.json) {
    // The same shape as a trial's result.json, its kernel rows written from the capture.
    detail::write_result_document(std::cout, record, judged);
  } else {
    detail::add_kernel_rows(judged, record);
    // Check lines first, as `sweep run` prints them: they are what the reader came for. The
    // same console as the sweep's, its check lines bare.
    reporting::console_reporter console(std::cout, std::cerr, reporting::console_options{"", true});
    check_lines.replay(console);
    detail::write_metrics_table(std::cout, record.metrics);
    for (const auto& note : judged.front().notes) fmt::print(std::cout, "note: {}\n", note);
  }
  if (const int signal_number = interrupts.take_first_pending(); signal_number != 0) {
    fmt::print(std::cerr, "aorta: interrupted by {} after the read of {}\n",
               detail::signal_label(signal_number), flags.path);
    return 128 + signal_number;
  }
  if (!empty_failure && record.verdict != verdict::pass) {
    fmt::print(std::cerr, "aorta: {}: {}\n", to_string(record.verdict), record.reason);
  }
  if (empty_failure) {
    fmt::print(std::cerr,
               "aorta: empty capture: {} holds no kernel, scope or function data (pass "
               "--allow-empty if that is expected)\n{}\n",
               flags.path, record.reason);
    return static_cast<int>(exit_code::failed);
  }
  return record.verdict == verdict::pass ? 0 : static_cast<int>(exit_code::failed);
}

}  // namespace

void add_check_command(CLI::App& app, action& selected) {
  auto* check = app.add_subcommand("check", "Post-check an existing capture (file or directory)");
  auto flags = std::make_shared<check_flags>();
  check->add_option("--collector", flags->collector,
                    "The collector whose capture PATH holds (default: detected from the files)");
  check->add_option("--check", flags->checks, "A check expression (repeatable)");
  check->add_option("--recipe", flags->recipe,
                    "Read with this recipe's collector options, and run its checks too");
  check->add_flag("--json", flags->json, "Print metrics and check results as JSON");
  check->add_flag("--allow-empty", flags->allow_empty, "An empty capture is not a failure");
  check->add_flag("--aggregate", flags->aggregate,
                  "Sum a directory holding several trials, tests or copies of one capture "
                  "(refused without it)");
  check->add_option("path", flags->path, "Capture file or directory")->required();
  check->callback([&selected, flags] { selected = [flags] { return run_check(*flags); }; });
}

void add_report_command(CLI::App& app, action& selected) {
  auto* report = app.add_subcommand(
      "report", "Aggregate every result.json below DIR into perf.md, report.json, report.html");
  auto dir = std::make_shared<std::string>();
  auto begin = std::make_shared<bool>(false);
  report->add_option("dir", *dir, "Results directory")->required();
  report->add_flag("--begin-run", *begin,
                   "Mark the start of a run: later reports leave older results out as stale");
  auto history = std::make_shared<std::string>();
  report->add_option("--history", *history,
                     "History store (SQLite file or postgresql:// URL): report.html also draws "
                     "the trends of the report's tests");
  report->callback([&selected, dir, begin, history] {
    selected = [dir, begin, history] {
      if (*begin) {
        const std::string started = begin_report_run(*dir);
        fmt::print(std::cout, "report: run started {}; results in {} older than that will be marked "
                   "stale\n",
                   started, *dir);
        return 0;
      }
      const auto summary = write_aggregate_report(*dir, *history);
      std::cout << summary.to_string() << '\n';
      return 0;
    };
  });
}

}  // namespace aorta::cli
