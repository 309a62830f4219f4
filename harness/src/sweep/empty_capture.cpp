#include "sweep/empty_capture.hpp"

#include <fmt/format.h>

namespace aorta::detail {
namespace {

std::string option_or(const option_map& options, std::string_view key, std::string fallback) {
  const auto it = options.find(key);
  return it == options.end() ? fallback : it->second.text;
}

std::string explain_proton(const capture& empty, const option_map& options) {
  const std::string mode = option_or(options, "mode", "cli");
  if (empty.files.empty()) {
    std::string causes =
        "- the payload called sys.exit(0) on success: Triton 3.6's Proton CLI then skips "
        "finalize() and writes no .hatchet (measured on the H200); return from main instead\n";
    if (mode == "env") {
      causes =
          "- in mode: env the payload must call proton.start(os.environ['AORTA_PROTON_NAME'], ...) "
          "and proton.finalize() itself; it did not, or used another name\n" +
          causes;
    }
    return fmt::format("empty capture: proton wrote no .hatchet under {}.\nLikely causes:\n{}"
                       "- the payload crashed or was killed before Proton finalized\n"
                       "Set `allow_empty: true` in the recipe only if no GPU work is expected.",
                       empty.artifact_dir.string(), causes);
  }
  return fmt::format(
      "empty capture: {} holds no kernel and no scope (a bare ROOT, or a trace without kernel "
      "events).\nLikely causes:\n"
      "- the payload launched no GPU kernel inside the profiling session\n"
      "- the backend attached after the GPU runtime came up (e.g. roctracer pinned under mode: cli "
      "on Triton <= 3.7.x)\n"
      "Set `allow_empty: true` in the recipe only if no GPU work is expected.",
      empty.artifact_dir.string());
}

}  // namespace

std::string explain_empty_capture(const capture& empty, const option_map& options) {
  if (empty.collector == "proton") return explain_proton(empty, options);
  if (empty.collector == "rocprof") {
    return fmt::format(
        "empty capture: rocprofv3 left no kernel data under {}.\nLikely causes:\n"
        "- the command dispatched no GPU work (rocprofv3 then writes no files at all)\n"
        "- kernel_include_regex matched no kernel\n"
        "- output_format is pftrace/otf2, which aorta does not read (use csv, json or rocpd)\n"
        "- the command started the GPU work in a process rocprofv3 did not follow (e.g. docker "
        "run)",
        empty.artifact_dir.string());
  }
  if (empty.collector == "ncu") {
    return fmt::format(
        "empty capture: ncu profiled no kernel under {}.\nLikely causes:\n"
        "- kernel_name matched no kernel, or launch_skip/launch_count skipped them all\n"
        "- the command launched no CUDA kernel\n"
        "- ncu could not read the GPU counters (ERR_NVGPUCTRPERM): see ncu.csv",
        empty.artifact_dir.string());
  }
  if (empty.collector == "callgrind") {
    return fmt::format(
        "empty capture: callgrind recorded no function cost under {}.\nLikely causes:\n"
        "- toggle_collect names a function that never ran (check the spelling, C++ names are "
        "demangled with their argument list)\n"
        "- the payload is a script: set trace_children: true to follow the real program",
        empty.artifact_dir.string());
  }
  return fmt::format("empty capture: {} recorded nothing under {}", empty.collector,
                     empty.artifact_dir.string());
}

}  // namespace aorta::detail
