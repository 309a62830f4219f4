// --quiet, --verbose and --ctest-measurements: the same three on every command that runs trials
// (sweep run, ab, calibrate), so they read the same everywhere (docs/cli.md, "Output").
#pragma once

#include "aorta/sweep.hpp"

#include <CLI/CLI.hpp>

namespace aorta::cli {

struct console_flags {
  bool quiet = false;
  bool verbose = false;
  bool ctest_measurements = false;

  // Into a request: normal unless one of the two was given; no CTest tags unless asked for.
  void apply(sweep_request& request) const;
};

void add_console_flags(CLI::App& command, console_flags& flags);

}  // namespace aorta::cli
