// proton option schema (docs/recipes.md) and guards 1-5 (docs/guards.md).
#include "collectors/proton/proton_options.hpp"

#include "option_text.hpp"
#include "text_trim.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>

namespace aorta {

namespace {

constexpr std::string_view proton_name = "proton";

const std::vector<std::string>& proton_option_keys() {
  static const std::vector<std::string> keys{"mode",        "backend", "backend_mode",
                                             "context",     "data",    "instrumentation_mode",
                                             "granularity", "hook",    "format"};
  return keys;
}

// Whole-kernel backends and the Proton --mode values each accepts.
const std::map<std::string, std::vector<std::string>>& backend_modes() {
  static const std::map<std::string, std::vector<std::string>> modes{
      {"cupti", {"pcsampling", "periodic_flushing"}},
      {"rocprofiler", {"pcsampling", "periodic_flushing"}},
      {"roctracer", {"periodic_flushing"}},
  };
  return modes;
}

// Trimmed, lower-cased value of `key`, checked against `allowed`; nullopt when absent.
std::optional<std::string> read_enum(const option_map& options, std::string_view key,
                                     const std::vector<std::string>& allowed, std::string_view what,
                                     std::string_view fix) {
  const auto* option = detail::find_option(options, key);
  if (option == nullptr) return std::nullopt;
  std::string value = detail::to_lower(detail::trim(option->text));
  detail::require_one_of(proton_name, key, value, allowed, what, fix);
  return value;
}

void check_mode_combinations(const proton_options& parsed) {
  const bool intra_kernel = parsed.instrumentation_mode || parsed.granularity;
  const std::string_view intra_key =
      parsed.instrumentation_mode ? "instrumentation_mode" : "granularity";
  // Before the backend gate: the real cause is that all three render into one --mode value.
  if (parsed.backend_mode && intra_kernel) {
    detail::fail_option(
        proton_name, "backend_mode",
        fmt::format("cannot be combined with {}: backend_mode, instrumentation_mode and "
                    "granularity all render into Proton's single --mode, so only one kind may "
                    "be set. Fix: keep backend_mode (whole-kernel backends cupti, rocprofiler, "
                    "roctracer) or instrumentation_mode/granularity (backend: instrumentation), "
                    "not both.",
                    intra_key));
  }
  if (intra_kernel && parsed.backend != "instrumentation") {
    detail::fail_option(
        proton_name, intra_key,
        fmt::format("instrumentation_mode and granularity require backend: instrumentation, "
                    "got backend: {}; Proton would silently ignore them. Fix: set backend: "
                    "instrumentation, or drop {}.",
                    parsed.backend, intra_key));
  }
  if (!parsed.backend_mode) return;
  const auto table = backend_modes().find(parsed.backend);
  if (table == backend_modes().end()) {
    detail::fail_option(
        proton_name, "backend_mode",
        fmt::format("requires an explicit backend from [cupti, rocprofiler, roctracer], got "
                    "backend: {}. Fix: pin the backend (which needs mode: env for rocprofiler "
                    "/ roctracer), or drop the option.",
                    parsed.backend));
  }
  const auto& allowed = table->second;
  if (std::find(allowed.begin(), allowed.end(), *parsed.backend_mode) == allowed.end()) {
    detail::fail_option(
        proton_name, "backend_mode",
        fmt::format("'{}' is not a mode of backend {}; allowed for {}: {}. Fix: pick one of "
                    "those, or choose a backend that supports '{}'.",
                    *parsed.backend_mode, parsed.backend, parsed.backend, detail::join(allowed),
                    *parsed.backend_mode));
  }
}

// Output formats: each data kind writes only its own (Triton's proton TreeData.cpp and
// TraceData.cpp, doDump), and Proton's CLI has no flag to pick one: `python -m
// triton.profiler.proton --help` of Triton 3.5.1, 3.6.0, 3.8.0 and 3.9.0 lists -n -b -c -m -d -k
// only, and its run_profiling() calls finalize() with the default. tests/proton_cli checks that.
void check_format(const proton_options& parsed) {
  if (!parsed.format) return;
  const std::string& format = *parsed.format;
  const bool tree_format = format == "hatchet" || format == "hatchet_msgpack";
  if (parsed.data == "tree" && !tree_format)
    detail::fail_option(
        proton_name, "format",
        fmt::format("'{}' is not written for data: tree; Proton's tree writes hatchet "
                    "or hatchet_msgpack. Fix: use one of those, or set data: trace "
                    "for a chrome_trace.",
                    format));
  if (parsed.data == "trace" && format != "chrome_trace")
    detail::fail_option(proton_name, "format",
                        fmt::format("'{}' is not written for data: trace; Proton's trace writes "
                                    "chrome_trace only. Fix: use format: chrome_trace (or leave "
                                    "format out), or set data: tree for a {}.",
                                    format, format));
  const bool proton_default = format == (parsed.data == "tree" ? "hatchet" : "chrome_trace");
  if (parsed.mode == "cli" && !proton_default)
    detail::fail_option(
        proton_name, "format",
        fmt::format(
            "'{}' cannot be chosen under mode: cli: Proton's command line (python -m "
            "triton.profiler.proton, Triton 3.5.1 to 3.9.0) has no output-format flag and always "
            "finalizes with the default ({} for data: {}). Fix: set mode: env, where the payload "
            "passes os.environ[\"AORTA_PROTON_FORMAT\"] to proton.finalize(output_format=...); "
            "hatchet_msgpack needs a Triton that writes it (3.6.0 answers \"Unknown output format: "
            "hatchet_msgpack\"; the 3.8.0 wheel knows it).",
            format, parsed.data == "tree" ? "hatchet" : "chrome_trace", parsed.data));
}

}  // namespace

std::optional<std::string> proton_options::mode_argument() const {
  if (backend_mode) return backend_mode;
  if (!instrumentation_mode && !granularity) return std::nullopt;
  std::string rendered = instrumentation_mode.value_or("default");
  if (granularity) rendered += ":granularity=" + *granularity;
  return rendered;
}

bool proton_options::queue_intercepting() const {
  return backend == "auto" || backend == "rocprofiler" || backend == "roctracer";
}

bool proton_options::amd_backend() const {
  return backend == "rocprofiler" || backend == "roctracer";
}

proton_options parse_proton_options(const option_map& options) {
  detail::reject_unknown_options(proton_name, options, proton_option_keys());
  proton_options parsed;
  if (auto v = read_enum(options, "mode", {"cli", "env"}, "a proton attach mode",
                         "use cli (wrap a Python script) or env (the payload calls "
                         "proton.start itself).")) {
    parsed.mode = *v;
  }
  if (auto v = read_enum(options, "backend",
                         {"auto", "cupti", "rocprofiler", "roctracer", "instrumentation"},
                         "a proton backend", "pick one of those (auto lets Proton choose).")) {
    parsed.backend = *v;
  }
  parsed.backend_mode = read_enum(
      options, "backend_mode", {"pcsampling", "periodic_flushing"}, "a proton backend_mode",
      "pick one the backend supports: cupti and rocprofiler take pcsampling or "
      "periodic_flushing, roctracer takes periodic_flushing.");
  if (auto v = read_enum(options, "context", {"shadow", "python"}, "a proton context",
                         "use shadow (kernel launch sites) or python (Python call paths).")) {
    parsed.context = *v;
  }
  if (auto v = read_enum(options, "data", {"tree", "trace"}, "a proton data format",
                         "use tree (the hatchet call tree) or trace (a chrome trace of every "
                         "launch).")) {
    parsed.data = *v;
  }
  parsed.instrumentation_mode =
      read_enum(options, "instrumentation_mode", {"default", "mma", "pcsampling"},
                "a proton instrumentation_mode",
                "pick one of those, with backend: "
                "instrumentation.");
  parsed.granularity =
      read_enum(options, "granularity",
                {"cta", "warp", "warp_2", "warp_4", "warp_8", "warp_group", "warp_group_2",
                 "warp_group_4", "warp_group_8"},
                "a proton granularity", "pick one of those, with backend: instrumentation.");
  parsed.hook =
      read_enum(options, "hook", {"triton"}, "a proton hook", "use triton, or remove the option.");
  parsed.format = read_enum(options, "format", {"hatchet", "hatchet_msgpack", "chrome_trace"},
                            "a proton output format",
                            "use hatchet or hatchet_msgpack (data: tree), or chrome_trace "
                            "(data: trace).");
  check_mode_combinations(parsed);
  check_format(parsed);
  return parsed;
}

}  // namespace aorta
