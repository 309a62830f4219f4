// `aorta view`: a Proton capture as a tree, with proton-viewer's options.
#include "aorta/error.hpp"
#include "captures/tree_view.hpp"
#include "collectors/format_detection.hpp"
#include "metrics/display_names.hpp"
#include "cli/commands.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <optional>
#include <iostream>

namespace aorta::cli {
namespace fs = std::filesystem;
namespace {

struct view_flags {
  std::string path;
  std::vector<std::string> metrics;
  std::string sort = "value";
  std::optional<std::size_t> depth;
  bool mangled = false;
};

// Proton's outputs by name: <name>.hatchet, .hatchet_msgpack, .chrome_trace (and .part_<phase>.*).
bool is_proton_output(const fs::path& file) {
  return file.extension() == ".hatchet" || file.extension() == ".hatchet_msgpack" ||
         file.extension() == ".chrome_trace";
}

// The one Proton output a path means: the file itself, or the only one below a directory.
// Anything else is refused with what it is, not with a JSON parse error.
fs::path capture_to_view(const std::string& given) {
  std::error_code failure;
  if (!fs::exists(given, failure)) {
    throw usage_error(fmt::format("{}: no such file or directory", given));
  }
  if (fs::is_directory(given, failure)) {
    std::vector<fs::path> outputs;
    for (fs::recursive_directory_iterator walker(
             given, fs::directory_options::skip_permission_denied, failure);
         !failure && walker != fs::recursive_directory_iterator(); walker.increment(failure)) {
      if (walker->is_regular_file(failure) && !walker->is_symlink(failure) &&
          is_proton_output(walker->path())) {
        outputs.push_back(walker->path());
      }
    }
    if (outputs.size() == 1) return outputs.front();
    if (outputs.empty()) {
      const auto formats = detail::detect_capture_formats(given);
      std::string found;
      for (const auto& format : formats) found += (found.empty() ? "" : ", ") + format;
      throw usage_error(fmt::format(
          "{}: a directory without any .hatchet, .hatchet_msgpack or .chrome_trace file{}; aorta "
          "view reads Proton's outputs{}",
          given, found.empty() ? "" : fmt::format(" (it holds {} captures)", found),
          found.empty() ? "" : fmt::format("; try aorta check {}", given)));
    }
    std::sort(outputs.begin(), outputs.end());
    std::string names;
    for (const auto& path : outputs) names += "\n  " + path.string();
    throw usage_error(fmt::format("{}: a directory with {} Proton output files; name one:{}",
                                  given, outputs.size(), names));
  }
  // Opening a FIFO would wait for a writer forever, and a device never ends.
  if (!fs::is_regular_file(given, failure)) {
    throw usage_error(fmt::format("{}: not a regular file (a FIFO, device or socket); aorta view "
                                  "reads a .hatchet, .hatchet_msgpack or .chrome_trace file, or a "
                                  "directory holding one",
                                  given));
  }
  const auto* recognised = detail::recognise_capture_file(given);
  const auto format = recognised == nullptr ? std::optional<std::string>()
                                            : std::optional<std::string>(recognised->name());
  if (format && *format != "proton") {
    throw usage_error(fmt::format("{}: not a Proton output: it looks like {}; read it with aorta "
                                  "check {}",
                                  given, detail::describe_capture_format(*format), given));
  }
  if (!format) {
    throw usage_error(fmt::format("{}: not a Proton output (a hatchet tree, hatchet_msgpack or "
                                  "chrome trace) nor any capture aorta recognises",
                                  given));
  }
  return given;
}

}  // namespace

void add_view_command(CLI::App& app, action& selected) {
  auto* view = app.add_subcommand(
      "view", "Print a Proton capture as a tree: hatchet, hatchet_msgpack or chrome trace (no "
              "Python needed)");
  auto flags = std::make_shared<view_flags>();
  view->add_option("path", flags->path, "A .hatchet, .hatchet_msgpack or .chrome_trace file, or a directory holding one")
      ->required();
  view->add_option("-m,--metric", flags->metrics,
                   "Comma-separated columns, the first orders the tree: time/ns, time/us, "
                   "time/ms, time/s, time/% (share of the total), count, cycles, "
                   "normalized_cycles, samples, stalled, share (PC samples; a line's share "
                   "of its kernel's)")
      ->delimiter(',');
  view->add_option("--sort", flags->sort, "value (largest first, default) or name")
      ->check(CLI::IsMember({"value", "name"}));
  view->add_option("-d,--depth", flags->depth, "Show this many levels below the root");
  view->add_flag("--mangled", flags->mangled,
                 "Print C++ kernel names as captured (_Z...) instead of demangled");
  view->callback([&selected, flags] {
    selected = [flags] {
      tree_view_options options;
      options.metrics = flags->metrics;
      options.sort_by_name = flags->sort == "name";
      options.max_depth = flags->depth;
      if (!flags->mangled) {
        options.display_name = [](std::string_view name) { return detail::demangled_name(name); };
      }
      render_hatchet_tree(capture_to_view(flags->path), options, std::cout);
      return 0;
    };
  });
}

}  // namespace aorta::cli
