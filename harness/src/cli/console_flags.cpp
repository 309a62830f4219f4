#include "cli/console_flags.hpp"

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
}

}  // namespace aorta::cli
