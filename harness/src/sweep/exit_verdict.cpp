#include "sweep/exit_verdict.hpp"

#include "aorta/name_regex.hpp"
#include "record/verdict_rules.hpp"
#include "sweep/usage_error_line.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <fstream>
#include <iterator>

namespace aorta::detail {
namespace {

// The payload's last words on stderr (else stdout): where a payload says why it cannot run.
std::string last_output_line(const std::filesystem::path& trial_dir) {
  for (const char* name : {"stderr.log", "stdout.log"}) {
    std::ifstream log(trial_dir / name);
    std::string line;
    std::string last;
    while (std::getline(log, line)) {
      if (line.find_first_not_of(" \t\r") != std::string::npos) last = line;
    }
    if (!last.empty()) return last.size() > 400 ? last.substr(0, 400) + "..." : last;
  }
  return {};
}

// The end of the payload's stderr and stdout (64 KiB of each at most): enough to see why it
// stopped without reading a chatty payload's whole log.
std::string payload_output_tail(const std::filesystem::path& trial_dir) {
  constexpr std::streamoff tail_bytes = 64 * 1024;
  std::string text;
  for (const char* name : {"stderr.log", "stdout.log"}) {
    std::ifstream log(trial_dir / name, std::ios::binary | std::ios::ate);
    if (!log) continue;
    const std::streamoff size = log.tellg();
    log.seekg(std::max<std::streamoff>(0, size - tail_bytes));
    text.append(std::istreambuf_iterator<char>(log), std::istreambuf_iterator<char>());
    text += '\n';
  }
  return text;
}

std::string signal_name(int signal_number) {
  const char* abbreviation = ::sigabbrev_np(signal_number);
  return abbreviation != nullptr ? fmt::format("SIG{}", abbreviation)
                                 : fmt::format("signal {}", signal_number);
}

// How a payload that aorta ended went: by the signal it got, or by SIGKILL after the grace.
std::string how_it_ended(const process_result& result) {
  if (result.killed_after_grace) {
    return fmt::format("it ignored that and was killed by SIGKILL after the {:g} s grace",
                       result.kill_grace_seconds);
  }
  if (result.signal) return fmt::format("it ended by {}", signal_name(*result.signal));
  if (result.exit_status) return fmt::format("it then exited {}", *result.exit_status);
  return "its exit status is unknown";
}

}  // namespace

// "timeout: 2 from r.yaml" or "--timeout 3 from the command line": where the limit a timeout
// reports came from. Every CTest timeout is the second kind.
std::string timeout_origin(const recipe& spec) {
  if (!spec.timeout_seconds) return {};
  if (spec.timeout_key == command_line_timeout_key) {
    return fmt::format("{} {:g} from the command line; aorta_add_profiled_test() passes the "
                       "test's TIMEOUT less a tenth",
                       command_line_timeout_key, *spec.timeout_seconds);
  }
  return fmt::format("{}: {:g} from {}", spec.timeout_key, *spec.timeout_seconds,
                     spec.path.string());
}

void judge_exit(const trial_setup& setup, const process_result& result, trial_record& record) {
  const recipe& spec = *setup.spec;
  if (result.interrupted_by) {
    decide_verdict(
        record, verdict::error,
        fmt::format("interrupted: aorta received {} after {:.1f} s and passed it on to the payload "
                    "({}); the run stopped, later trials did not run",
                    signal_name(*result.interrupted_by), result.wall_seconds,
                    how_it_ended(result)));
    return;
  }
  if (result.stopped) {
    record.hung_after_capture = true;
    decide_verdict(
        record, verdict::fail,
        fmt::format("payload hung after a complete capture: every collector's output was complete "
                    "and valid and unchanged for {:g} s (capture_exit_grace, {}) but the payload "
                    "had not exited; aorta sent SIGTERM and {} (its own exit status is unknown, so "
                    "the trial cannot pass; the checks were still evaluated)",
                    spec.capture_exit_grace_seconds, spec.path.string(), how_it_ended(result)));
    return;
  }
  if (result.timed_out) {
    decide_verdict(record, verdict::fail,
                   fmt::format("payload {}", result.describe(timeout_origin(spec))));
    return;
  }
  if (result.signal) {
    decide_verdict(record, verdict::fail, fmt::format("payload died of {}", result.describe()));
    return;
  }
  const int status = result.exit_status.value_or(-1);
  for (const int environment_code : spec.environment_exit_codes) {
    if (status == environment_code && status != spec.expect_exit) {
      const std::string output = payload_output_tail(setup.trial_dir);
      if (const auto usage = usage_error_line(output)) {
        decide_verdict(record, verdict::fail,
                       fmt::format("payload exited {}, an environment exit code, but its output "
                                   "shows the command itself is wrong (\"{}\"): a usage error is "
                                   "a failure, not a skip",
                                   status, *usage));
        return;
      }
      if (spec.environment_marker &&
          !name_regex::compile(*spec.environment_marker).search(output)) {
        decide_verdict(record, verdict::fail,
                       fmt::format("payload exited {}, an environment exit code, but printed "
                                   "nothing matching the recipe's environment_marker /{}/ ({}); a "
                                   "skip needs the payload to say why",
                                   status, *spec.environment_marker, spec.path.string()));
        return;
      }
      const std::string said = last_output_line(setup.trial_dir);
      decide_verdict(
          record, setup.require_profiler ? verdict::fail : verdict::skip,
          fmt::format("payload exited {}, its environment exit code (environment_exit_codes in "
                      "{}): this environment cannot run it{}{}",
                      status, spec.path.string(),
                      said.empty() ? "" : fmt::format(" (payload: \"{}\")", said),
                      setup.require_profiler ? "; a skip is a failure under --require-profiler"
                                             : ""));
      return;
    }
  }
  if (status != spec.expect_exit) {
    decide_verdict(record, verdict::fail,
                   fmt::format("payload exited {} (expected {})", status, spec.expect_exit));
    return;
  }
  record_pass(record);
}

}  // namespace aorta::detail
