// --quiet, --verbose, --ctest-measurements and --events-jsonl: the same on every command that runs
// trials (sweep run, ab, calibrate), so they read the same everywhere (docs/cli.md, "Output").
#pragma once

#include "aorta/sweep.hpp"

#include <CLI/CLI.hpp>

#include <string>

namespace aorta::cli {

struct console_flags {
  bool quiet = false;
  bool verbose = false;
  bool ctest_measurements = false;
  std::string events_jsonl;  // empty: no events file

  // Into a request: normal unless one of the two was given; no CTest tags unless asked for.
  void apply(sweep_request& request) const;
};

void add_console_flags(CLI::App& command, console_flags& flags);

// The sweep with the console the flags ask for, and the events file beside it when one was named.
// An events file that cannot be opened is a usage error (64) before anything runs.
[[nodiscard]] sweep_outcome run_sweep_with_console(const sweep_request& request,
                                                   const console_flags& flags);

}  // namespace aorta::cli
