// `aorta diff A B`: the change between two captures of one profiler, culprit first
// (diff/capture_diff.hpp; docs/cli.md).
#include "aorta/collector.hpp"
#include "aorta/error.hpp"
#include "atomic_file.hpp"
#include "checks/closest_names.hpp"
#include "cli/commands.hpp"
#include "collectors/format_detection.hpp"
#include "diff/capture_diff.hpp"
#include "diff/diff_capture_reading.hpp"
#include "diff/diff_flame_graph.hpp"

#include <fmt/format.h>
#include <fmt/ostream.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <memory>

namespace aorta::cli {
namespace {

struct diff_flags {
  std::string a;
  std::string b;
  std::string collector;
  bool all = false;
  std::string html;
};

std::string reader_of(const std::string& path, const std::string& named) {
  if (!std::filesystem::exists(path)) {
    throw usage_error(fmt::format("{}: no such file or directory. Fix: give a capture file or "
                                  "a trial's collector directory (e.g. out/trial_0/callgrind)",
                                  path));
  }
  const auto formats = detail::detect_capture_formats(path);
  if (!named.empty()) {
    // A named reader the files are plainly not for would fail later as an empty capture; the
    // readers the files do match are the better answer.
    if (!formats.empty() && std::find(formats.begin(), formats.end(), named) == formats.end()) {
      throw usage_error(fmt::format("{} holds no {} capture: it looks like {}. Fix: "
                                    "--collector {}, or leave --collector out",
                                    path, named, fmt::join(formats, ", "), formats.front()));
    }
    return named;
  }
  if (formats.size() == 1) return formats.front();
  if (formats.empty()) {
    throw usage_error(fmt::format("{}: not a capture aorta recognises. Fix: name the reader with "
                                  "--collector, or give a trial's collector directory",
                                  path));
  }
  throw usage_error(fmt::format("{} holds captures of several profilers ({}). Fix: choose one with "
                                "--collector",
                                path, fmt::join(formats, ", ")));
}

// The readers `aorta diff` can use: every collector that reads a capture from files.
std::vector<std::string> reader_names() {
  std::vector<std::string> names;
  for (const auto& name : collector_names()) {
    if (const auto* collector = find_collector(name);
        collector != nullptr && collector->attaches()) {
      names.push_back(name);
    }
  }
  return names;
}

void require_known_reader(const std::string& named) {
  if (named.empty()) return;
  const auto readers = reader_names();
  if (std::find(readers.begin(), readers.end(), named) != readers.end()) return;
  throw usage_error(fmt::format("--collector '{}' is not a reader aorta has{}. Fix: name one of "
                                "{}, or leave --collector out to detect it from the files",
                                named, detail::closest_names_text(readers, named),
                                fmt::join(readers, ", ")));
}

int run_diff(const diff_flags& flags) {
  require_known_reader(flags.collector);
  const std::string reader_a = reader_of(flags.a, flags.collector);
  const std::string reader_b = reader_of(flags.b, flags.collector);
  if (reader_a != reader_b) {
    throw usage_error(fmt::format("{} is a capture of {} and {} one of {}: a diff compares two "
                                  "captures of one profiler. Fix: give two of the same kind",
                                  flags.a, reader_a, flags.b, reader_b));
  }
  const capture a = detail::read_capture_as(flags.a, reader_a);
  const capture b = detail::read_capture_as(flags.b, reader_b);
  const auto diff = detail::diff_captures(a, b);
  if (diff.rows.empty()) {
    fmt::print(std::cerr, "aorta: diff: neither {} nor {} holds a kernel, function or scope\n",
               flags.a, flags.b);
    return static_cast<int>(exit_code::failed);
  }
  fmt::print(std::cout, "aorta: diff ({}): A = {}, B = {}\n{}", reader_a, flags.a, flags.b,
             detail::format_capture_diff(diff, flags.all));
  if (!flags.html.empty()) {
    detail::write_file_atomically(
        flags.html, detail::diff_flame_graph_html(
                        a, b, fmt::format("{} -> {} ({})", flags.a, flags.b, reader_a)));
    fmt::print(std::cout, "aorta: diff: differential flame graph -> {}\n", flags.html);
  }
  return 0;
}

}  // namespace

void add_diff_command(CLI::App& app, action& selected) {
  auto* diff = app.add_subcommand(
      "diff", "aorta diff A B [--collector NAME] [--all] [--html FILE]: the change from capture "
              "A to capture B, the rows that carry it first");
  auto flags = std::make_shared<diff_flags>();
  diff->add_option("a", flags->a, "The first capture (file or directory)")->required();
  diff->add_option("b", flags->b, "The second capture, of the same profiler")->required();
  diff->add_option("--collector", flags->collector,
                   "The collector whose captures A and B are (default: detected from the files)");
  diff->add_flag("--all", flags->all, "List the unchanged rows too");
  diff->add_option("--html", flags->html,
                   "Also write a differential flame graph to FILE (offline HTML: red slower, blue "
                   "faster, width = time)");
  diff->callback([&selected, flags] { selected = [flags] { return run_diff(*flags); }; });
}

}  // namespace aorta::cli
