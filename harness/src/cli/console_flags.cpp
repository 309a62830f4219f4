#include "cli/console_flags.hpp"

#include "aorta/error.hpp"
#include "reporting/jsonl_reporter.hpp"
#include "sweep/sweep_reporting.hpp"

#include <fmt/format.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>

namespace aorta::cli {

void console_flags::apply(sweep_request& request) const {
  request.detail =
      verbose ? console_detail::verbose : (quiet ? console_detail::quiet : console_detail::normal);
  request.ctest_measurements = ctest_measurements;
}

void add_console_flags(CLI::App& command, console_flags& flags) {
  auto* quiet = command.add_flag(
      "-q,--quiet", flags.quiet,
      "Print no progress line per trial: the verdict, the failed trials' detail and the tables "
      "that judged the run");
  auto* verbose = command.add_flag(
      "-v,--verbose", flags.verbose,
      "Print every trial's lines, the payload's output and measurements as they happen, the "
      "verdict last");
  quiet->excludes(verbose);
  command.add_flag("--ctest-measurements", flags.ctest_measurements,
                   "Print <CTestMeasurement> tags for CTest and CDash (aorta_add_profiled_test "
                   "passes it)");
  command.add_option("--events-jsonl", flags.events_jsonl,
                     "Write one JSON line per event of the run (plan, launch, check, verdict, "
                     "measurements, ...) to this file");
}

namespace {

// A FIFO or a device would block the run or never hold the events: only a regular file, new or
// replaced.
std::ofstream open_events_file(const std::string& path) {
  std::error_code ec;
  const auto status = std::filesystem::status(path, ec);
  if (!ec && std::filesystem::exists(status) && !std::filesystem::is_regular_file(status)) {
    throw usage_error(fmt::format("--events-jsonl: {} exists and is not a regular file. Fix: name "
                                  "a new file or a regular one to replace",
                                  path));
  }
  std::ofstream file(path, std::ios::out | std::ios::trunc);
  if (!file) {
    throw usage_error(fmt::format("--events-jsonl: cannot write {}: {}. Fix: name a file in a "
                                  "directory that exists and is writable",
                                  path, std::strerror(errno)));
  }
  return file;
}

}  // namespace

sweep_outcome run_sweep_with_console(const sweep_request& request, const console_flags& flags) {
  detail::sweep_console console(request, std::cout, std::cerr);
  if (flags.events_jsonl.empty()) return detail::run_reported_sweep(request, console.reporters());
  std::ofstream file = open_events_file(flags.events_jsonl);
  reporting::jsonl_reporter events(file);
  console.reporters().add(events);
  const sweep_outcome outcome = detail::run_reported_sweep(request, console.reporters());
  file.flush();
  if (!file) {
    console.reporters().report(reporting::note_event{
        reporting::severity::warning,
        fmt::format("--events-jsonl: a write to {} failed; the file is incomplete",
                    flags.events_jsonl),
        reporting::channel::diagnostic});
  }
  return outcome;
}

}  // namespace aorta::cli
