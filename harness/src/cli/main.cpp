// The single catch boundary: every aorta::error becomes its exit code here, and nowhere else.
#include "aorta/error.hpp"
#include "cli/commands.hpp"

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <cstdio>
#include <cstring>
#include <exception>
#include <string>
#include <vector>

int main(int argc, char** argv) {
  // Everything after the first bare `--` is the payload's argv: CLI11 never sees it, so no flag of
  // the payload can be taken for one of ours.
  int own_argc = argc;
  std::vector<std::string> command;
  for (int index = 1; index < argc; ++index) {
    if (std::strcmp(argv[index], "--") == 0) {
      own_argc = index;
      command.assign(argv + index + 1, argv + argc);
      break;
    }
  }
  const bool separator_seen = own_argc != argc;

  CLI::App app{"aorta: GPU profiling as a test. Exit codes: 0 pass, 1 fail (payload, check or "
               "empty capture), 64 usage/recipe error, 77 skipped (environment cannot run it)."};
  app.set_version_flag("--version", AORTA_VERSION);
  app.require_subcommand(1);
  aorta::cli::action selected;
  aorta::cli::add_sweep_command(app, selected, command);
  aorta::cli::add_validate_command(app, selected);
  aorta::cli::add_check_command(app, selected);
  aorta::cli::add_view_command(app, selected);
  aorta::cli::add_report_command(app, selected);
  aorta::cli::add_baseline_command(app, selected);
  aorta::cli::add_compare_command(app, selected);

  try {
    try {
      app.parse(own_argc, argv);
    } catch (const CLI::ExtrasError& e) {
      if (!separator_seen) {
        throw aorta::usage_error(fmt::format(
            "{}; missing '--' separator before the command? Usage: aorta sweep run --recipe R "
            "--output DIR -- CMD ...",
            e.what()));
      }
      throw;
    }
    if (separator_seen && !command.empty() && !app.got_subcommand("sweep")) {
      throw aorta::usage_error("only 'aorta sweep run' takes a command after '--'");
    }
    return selected ? selected() : static_cast<int>(aorta::exit_code::usage);
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);
    return code == 0 ? 0 : static_cast<int>(aorta::exit_code::usage);
  } catch (const aorta::error& e) {
    std::fflush(stdout);
    fmt::print(stderr, "aorta: error: {}\n", e.what());
    return static_cast<int>(e.code());
  } catch (const std::exception& e) {
    std::fflush(stdout);
    fmt::print(stderr, "aorta: internal error: {}\n", e.what());
    return static_cast<int>(aorta::exit_code::failed);
  }
}
