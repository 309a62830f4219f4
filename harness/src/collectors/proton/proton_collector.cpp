// proton: Triton's Proton profiler, attached through its CLI (mode: cli) or started by the
// payload (mode: env); reads the hatchet tree, MessagePack or Chrome trace it writes.
#include "captures/hatchet_reader.hpp"
#include "collectors/collector_support.hpp"
#include "option_text.hpp"
#include "collectors/proton/proton_wrap.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace aorta::detail {
namespace {

// Why a pcsampling recipe got kernel times but no samples, by the route the mode took.
std::string no_samples_cause(const proton_options& options) {
  if (options.mode == "cli")
    return "Under mode: cli the mode travels as the Proton CLI's --mode, which Triton's CLI parses "
           "and drops (measured on Triton 3.6.0: exit 0, kernel times, no sample). Fix: set `proton: {mode: env}` and have the payload "
           "call proton.start(os.environ['AORTA_PROTON_NAME'], backend=..., "
           "mode=os.environ['AORTA_PROTON_MODE']) itself, as "
           "the payload of examples/profiling/proton/nvidia-pcsampling does.";
  return "Under mode: env the payload starts Proton itself and must pass "
         "mode=os.environ['AORTA_PROTON_MODE'] to proton.start(); it did not, or the "
         "backend took no sample.";
}

bool requested(const std::vector<collector_request>& all, std::string_view name) {
  return std::any_of(all.begin(), all.end(), [&](const auto& r) { return r.name == name; });
}

// The key to point at when the backend is what makes a pairing fail: the backend option if the
// recipe spelled it, otherwise the collector as a whole (the default was in effect).
std::string backend_key(const collector_request& proton) {
  return find_option(proton.options, "backend") != nullptr ? "backend" : "";
}

// The interpreter whose packages the payload sees: the one the wrap runs Proton under. A command
// the wrap will refuse (reported then) is probed with python3.
std::string python_of(const std::vector<std::string>& command, const env_map& environment) {
  try {
    return resolve_python(command, environment).interpreter;
  } catch (const recipe_error&) {
    return "python3";
  }
}

class proton_collector_impl final : public collector_base {
public:
  [[nodiscard]] std::string_view name() const override { return "proton"; }
  [[nodiscard]] std::string_view summary() const override {
    return "Triton Proton: kernel and scope tree or trace (hatchet, MessagePack, Chrome trace)";
  }
  [[nodiscard]] bool recognises(const file_sample& file) const override {
    // Proton names its outputs by format: <name>.hatchet, .hatchet_msgpack, .chrome_trace (and
    // proton.part_<phase>.<format> when flushing periodically); MessagePack has no text to sniff.
    const auto extension = file.path.extension();
    if (extension == ".hatchet" || extension == ".hatchet_msgpack" || extension == ".chrome_trace")
      return true;
    // A renamed copy is recognised by content only as *.json: `proton.hatchet~` or
    // `*.hatchet.bak` beside the real output is a backup the reader skips, not a second capture.
    if (extension != ".json") return false;
    const char first = file.first_non_blank();
    if (first != '{' && first != '[') return false;
    return file.head_contains("\"frame\"") || file.head_contains("\"children\"") ||
           file.head_contains("\"traceEvents\"");
  }
  [[nodiscard]] std::string format_description() const override {
    return "a Proton capture (hatchet, hatchet_msgpack or chrome trace)";
  }
  [[nodiscard]] std::shared_ptr<const collector_config>
  parse_options(const option_map& options) const override {
    return std::make_shared<typed_config<proton_options>>(parse_proton_options(options));
  }

  void check_companions(const collector_request& own,
                        const std::vector<collector_request>& all) const override {
    const auto& proton = options_of<proton_options>(*own.config);
    if (requested(all, "rocprof") && proton.queue_intercepting()) {
      const std::string resolves =
          proton.backend == "auto" ? " (which resolves to rocprofiler or roctracer on AMD)" : "";
      throw option_error(
          "proton", backend_key(own),
          fmt::format("rocprof and proton with backend: {}{} cannot run together: both install "
                      "an HSA queue interceptor, so the second one fails or reports nothing. "
                      "Fix: set `proton: {{backend: instrumentation}}` (the one Proton backend "
                      "that installs no queue interceptor), or run rocprof and proton in separate "
                      "tests.",
                      proton.backend, resolves));
    }
    if (requested(all, "ncu") && (proton.backend == "auto" || proton.backend == "cupti")) {
      const std::string resolves =
          proton.backend == "auto" ? " (which resolves to cupti on NVIDIA)" : "";
      throw option_error(
          "proton", backend_key(own),
          fmt::format("ncu and proton with backend: {}{} cannot run together: both attach "
                      "through CUPTI, and on the H200 the pair fails (`RuntimeError: Failed to "
                      "execute cuptiSubscribe with error 39`, no hatchet written). Fix: run ncu "
                      "and proton in separate tests, or set `proton: {{backend: "
                      "instrumentation}}`.",
                      proton.backend, resolves));
    }
    // Guard 10 does not depend on the command, so it is refused when the recipe loads, where a
    // CPU-only CI sees it, and not only when wrapping.
    if (proton.mode == "cli" && proton.backend == "roctracer") {
      throw option_error("proton", backend_key(own), roctracer_cli_pin_refusal());
    }
  }

  [[nodiscard]] tool_version_map probe_versions(const collector_config& /*config*/,
                                                const std::vector<std::string>& command,
                                                const env_map& env) const override {
    tool_version_map versions;
    // importlib.metadata reads the installed version without importing triton (which is slow and
    // may initialise a GPU runtime).
    probe_version(versions, "triton",
                  {python_of(command, env), "-c",
                   "import importlib.metadata as m; print(m.version('triton'))"},
                  env);
    probe_nvidia_gpu(versions, env);
    // torch's version names the CUDA/ROCm runtime it was built with ("2.11.0+cu130").
    probe_version(versions, "torch",
                  {python_of(command, env), "-c",
                   "import importlib.metadata as m; print(m.version('torch'))"},
                  env);
    return versions;
  }

  [[nodiscard]] std::optional<std::string>
  unavailable_reason(const collector_config& config, const env_map& env,
                     const tool_version_map& versions) const override {
    if (!versions.contains("triton")) {
      return "proton needs Triton, and the payload's Python cannot find the 'triton' package "
             "(set $AORTA_PROTON_PYTHON to the interpreter that has it)";
    }
    return proton_unavailable_reason(options_of<proton_options>(config), env);
  }

  [[nodiscard]] launch_plan wrap(launch_plan inner, const collector_config& config,
                                 const std::filesystem::path& output_dir,
                                 const plan_context& context) const override {
    return proton_wrap(std::move(inner), options_of<proton_options>(config), output_dir,
                       context.env);
  }

  [[nodiscard]] capture read_capture(const std::filesystem::path& output,
                                     const read_context& context) const override {
    hatchet_read_options read_options;
    read_options.requested_backend = options_of<proton_options>(*context.config).backend;
    // A HIP hatchet does not say whether roctracer or rocprofiler ran; the Triton version does.
    if (const auto triton = context.versions.find("triton"); triton != context.versions.end()) {
      read_options.triton_version = triton->second;
    }
    read_options.keep_frame_tree = context.frames_needed;
    return read_hatchet_capture(output, read_options);
  }

  [[nodiscard]] std::string explain_empty(const capture& empty,
                                          const collector_config& config) const override {
    if (empty.files.empty()) {
      std::string causes =
          "- the payload called sys.exit(0) on success: Triton 3.6's Proton CLI then skips "
          "finalize() and writes no .hatchet (measured on the H200); return from main instead\n";
      if (options_of<proton_options>(config).mode == "env") {
        causes = "- in mode: env the payload must call proton.start(os.environ['AORTA_PROTON_NAME'], "
                 "...) and proton.finalize() itself; it did not, or used another name\n" +
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
        "- the backend attached after the GPU runtime came up (e.g. roctracer pinned under mode: "
        "cli on Triton <= 3.7.x)\n"
        "Set `allow_empty: true` in the recipe only if no GPU work is expected.",
        empty.artifact_dir.string());
  }

  [[nodiscard]] std::optional<std::string>
  failure_in_capture(const capture& got, const collector_config& config) const override {
    const auto& parsed = options_of<proton_options>(config);
    if (parsed.backend_mode != "pcsampling" || !got.pc_samples.empty() || got.empty())
      return std::nullopt;
    return fmt::format(
        "proton: the recipe asks for PC sampling (backend_mode: pcsampling) but {} holds no PC "
        "sample: no node carries num_samples, so a sampling run measured nothing. {}",
        got.artifact_dir.string(), no_samples_cause(parsed));
  }

  [[nodiscard]] platform_set platforms(const collector_config& config) const override {
    const auto& parsed = options_of<proton_options>(config);
    if (parsed.amd_backend()) return {platform::amd};
    if (parsed.backend == "cupti") return {platform::nvidia};
    return {platform::nvidia, platform::amd};  // auto and instrumentation run on both vendors
  }
};

}  // namespace

const collector_base& proton_collector() {
  static const proton_collector_impl instance;
  return instance;
}

}  // namespace aorta::detail
