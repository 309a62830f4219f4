// The single catch boundary: every aorta::error becomes its exit code here, and nowhere else.
#include "aorta/error.hpp"
#include "cli/command_words.hpp"
#include "cli/commands.hpp"
#include "terminal_text.hpp"

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <fmt/ostream.h>

#include <csignal>
#include <cstdio>
#include <cstring>
#include <exception>
#include <iostream>
#include <string>
#include <vector>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace {

// "view", "sweep run": the subcommands the parser entered, outermost first.
std::string subcommand_path(const CLI::App& app) {
  std::string path;
  const CLI::App* current = &app;
  for (;;) {
    const auto entered = current->get_subcommands();
    if (entered.empty()) break;
    current = entered.front();
    path += (path.empty() ? "" : " ") + current->get_name();
  }
  return path;
}

// Refuses a first word that names no subcommand: CLI11 would say only "A subcommand is required"
// for `aorta bogus`, and print the help and exit 0 for `aorta nosuch --help`; and `aorta` alone,
// which CLI11 answers without saying it is an error.
void require_known_subcommand(const CLI::App& app, int own_argc, char** argv) {
  if (own_argc < 2) throw aorta::usage_error(aorta::cli::missing_command_message(app));
  if (argv[1][0] == '-') return;
  const std::string word = argv[1];
  for (const auto* subcommand : app.get_subcommands([](const CLI::App*) { return true; })) {
    if (subcommand->check_name(word)) return;
  }
  throw aorta::usage_error(aorta::cli::unknown_command_message(app, word));
}

// The arguments no option of the entered command took, in the order given.
std::vector<std::string> stray_arguments(const CLI::App& app) {
  const CLI::App* current = &app;
  for (;;) {
    const auto entered = current->get_subcommands();
    if (entered.empty()) break;
    current = entered.front();
  }
  return current->remaining();
}

// A fixed threshold: glibc otherwise raises it to the size of each large block freed, so later
// big arrays come from the heap, whose freed middle stays resident. A check of 80,000 rocpd
// kernels peaked at 30 MiB RSS for 16 MB of live data that way, 22 MiB with this.
void fix_mmap_threshold() {
#if defined(__GLIBC__)
  mallopt(M_MMAP_THRESHOLD, 128 * 1024);
#endif
}

// Everything after the first bare `--` is the payload's argv (into `command`): CLI11 never sees
// it, so no flag of the payload can be taken for one of ours. Returns the count of aorta's own.
int split_off_payload(int argc, char** argv, std::vector<std::string>& command) {
  for (int index = 1; index < argc; ++index) {
    if (std::strcmp(argv[index], "--") == 0) {
      command.assign(argv + index + 1, argv + argc);
      return index;
    }
  }
  return argc;
}

void add_commands(CLI::App& app, aorta::cli::action& selected,
                  const std::vector<std::string>& command) {
  aorta::cli::add_sweep_command(app, selected, command);
  aorta::cli::add_ab_command(app, selected, command);
  aorta::cli::add_calibrate_command(app, selected, command);
  aorta::cli::add_rank_exec_command(app, selected, command);
  aorta::cli::add_validate_command(app, selected);
  aorta::cli::add_check_command(app, selected);
  aorta::cli::add_view_command(app, selected);
  aorta::cli::add_report_command(app, selected);
  aorta::cli::add_baseline_command(app, selected);
  aorta::cli::add_compare_command(app, selected);
  aorta::cli::add_diff_command(app, selected);
  aorta::cli::add_collectors_command(app, selected);
  aorta::cli::add_history_command(app, selected);
  aorta::cli::add_bisect_command(app, selected, command);
  aorta::cli::add_help_command(app, selected);
  aorta::cli::apply_value_names(app);
}

}  // namespace

int main(int argc, char** argv) {
  fix_mmap_threshold();
  // A closed stdout (`aorta sweep run ... | head -1`) must not kill the run: writes fail with
  // EPIPE instead, the terminal tee stops, and the logs and result.json are still written.
  // Children get SIGPIPE back at its default (run_process).
  std::signal(SIGPIPE, SIG_IGN);
  // The same for a file size limit (`ulimit -f`): a write past it fails with EFBIG, which the
  // log and result writers report, instead of SIGXFSZ killing aorta without a word.
  std::signal(SIGXFSZ, SIG_IGN);
  std::vector<std::string> command;
  const int own_argc = split_off_payload(argc, argv, command);
  const bool separator_seen = own_argc != argc;
  // Everything aorta prints may quote its inputs; control bytes in them are escaped on the way.
  const aorta::detail::terminal_safe_scope safe_stdout(std::cout);
  const aorta::detail::terminal_safe_scope safe_stderr(std::cerr);

  CLI::App app{"aorta: GPU profiling as a test. Exit codes: 0 pass, 1 fail (payload, check or "
               "empty capture), 64 usage/recipe error, 70 internal error (aorta broke), 77 skipped "
               "(environment cannot run it), 129/130/143 interrupted by SIGHUP/SIGINT/SIGTERM."};
  app.set_version_flag("--version", AORTA_VERSION);
  app.name("aorta");  // usage lines read "aorta sweep run", not the path it was started by
  app.require_subcommand(1);
  aorta::cli::action selected;
  add_commands(app, selected, command);

  try {
    require_known_subcommand(app, own_argc, argv);
    try {
      app.parse(own_argc, argv);
    } catch (const CLI::ExtrasError&) {
      const std::string name = subcommand_path(app);
      if (name.empty()) throw;
      throw aorta::usage_error(
          aorta::cli::stray_arguments_message(name, stray_arguments(app), separator_seen));
    }
    if (separator_seen && !command.empty() && !app.got_subcommand("sweep") &&
        !app.got_subcommand("rank-exec") && !app.got_subcommand("ab") &&
        !app.got_subcommand("calibrate") && !app.got_subcommand("bisect")) {
      throw aorta::usage_error("only 'aorta sweep run', 'aorta ab', 'aorta bisect', 'aorta "
                               "calibrate' and 'aorta rank-exec' take a command after '--'");
    }
    return selected ? selected() : static_cast<int>(aorta::exit_code::usage);
  } catch (const CLI::ParseError& e) {
    const std::string name = subcommand_path(app);
    if (e.get_exit_code() == 0 || name.empty()) {
      const int code = app.exit(e);
      return code == 0 ? 0 : static_cast<int>(aorta::exit_code::usage);
    }
    fmt::print(std::cerr, "aorta: error: {}: {}; see 'aorta {} --help'\n", name, e.what(), name);
    return static_cast<int>(aorta::exit_code::usage);
  } catch (const aorta::error& e) {
    std::cout.flush();
    std::cerr << "aorta: error: " << e.what() << '\n';
    return static_cast<int>(e.code());
  } catch (const std::exception& e) {
    std::cout.flush();
    std::cerr << "aorta: internal error (a bug in aorta, exit 70): " << e.what() << '\n';
    return static_cast<int>(aorta::exit_code::internal);
  }
}
