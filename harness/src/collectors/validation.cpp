// Collector names, per-collector option schemas and the rules about which collectors may share a
// run (reference §2 rules 6 and 8, plus the pairings ncu and callgrind add).
#include "aorta/callgrind_options.hpp"
#include "aorta/collector.hpp"
#include "aorta/ncu_options.hpp"
#include "aorta/proton_options.hpp"
#include "aorta/proton_wrap.hpp"
#include "aorta/rocprof_options.hpp"

#include "collectors/option_text.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace aorta {

namespace {

const collector_request* find_request(const std::vector<collector_request>& requested,
                                      std::string_view name) {
  const auto it = std::find_if(requested.begin(), requested.end(),
                               [&](const collector_request& r) { return r.name == name; });
  return it == requested.end() ? nullptr : &*it;
}

void reject_unknown_names(const std::vector<collector_request>& requested) {
  std::vector<std::string> unknown;
  for (const auto& request : requested) {
    const auto& known = collector_names();
    if (std::find(known.begin(), known.end(), request.name) == known.end()) {
      unknown.push_back(request.name);
    }
  }
  if (unknown.empty()) return;
  throw option_error(unknown.front(), "",
                     fmt::format("unknown collector(s) [{}]; valid: [{}].{} Fix: use one of the "
                                 "valid names.",
                                 detail::join(unknown), detail::join(collector_names()),
                                 detail::did_you_mean(unknown.front(), collector_names())));
}

// The key to point at when the backend is what makes a pairing fail: the backend option if the
// recipe spelled it, otherwise the collector as a whole (the default was in effect).
std::string backend_key(const collector_request& proton) {
  return detail::find_option(proton.options, "backend") != nullptr ? "backend" : "";
}

void check_callgrind_alone(const std::vector<collector_request>& requested) {
  if (find_request(requested, "callgrind") == nullptr) return;
  std::vector<std::string> gpu;
  for (const auto& request : requested) {
    if (request.name == "rocprof" || request.name == "ncu" || request.name == "proton") {
      gpu.push_back(request.name);
    }
  }
  if (gpu.empty()) return;
  throw option_error(
      "callgrind", "",
      fmt::format("callgrind cannot run together with the GPU collector(s) [{}]: valgrind runs "
                  "the GPU runtime under an instruction emulator, so the GPU profile would be "
                  "meaningless and the run slowed many times over. Fix: profile CPU and GPU in "
                  "separate tests (one recipe with callgrind, one with {}).",
                  detail::join(gpu), detail::join(gpu)));
}

void check_rocprof_with_ncu(const std::vector<collector_request>& requested) {
  if (find_request(requested, "rocprof") == nullptr || find_request(requested, "ncu") == nullptr) {
    return;
  }
  // Point at whichever of the two came second: that is the one that was added to the other.
  const auto rocprof_at = std::find_if(requested.begin(), requested.end(),
                                       [](const auto& r) { return r.name == "rocprof"; });
  const auto ncu_at = std::find_if(requested.begin(), requested.end(),
                                   [](const auto& r) { return r.name == "ncu"; });
  const std::string later = rocprof_at < ncu_at ? "ncu" : "rocprof";
  throw option_error(later, "",
                     "rocprof and ncu cannot run together: rocprof profiles AMD GPUs and ncu "
                     "NVIDIA GPUs, so one of them always captures nothing. Fix: keep the one "
                     "that matches the GPU the test runs on, or use separate tests.");
}

void check_proton_pairings(const std::vector<collector_request>& requested,
                           const proton_options& proton, const collector_request& request) {
  if (find_request(requested, "rocprof") != nullptr && proton.queue_intercepting()) {
    const std::string resolves =
        proton.backend == "auto" ? " (which resolves to rocprofiler or roctracer on AMD)" : "";
    throw option_error(
        "proton", backend_key(request),
        fmt::format("rocprof and proton with backend: {}{} cannot run together: both install "
                    "an HSA queue interceptor, so the second one fails or reports nothing. "
                    "Fix: set `proton: {{backend: instrumentation}}` (the one Proton backend "
                    "that installs no queue interceptor), or run rocprof and proton in separate "
                    "tests.",
                    proton.backend, resolves));
  }
  if (find_request(requested, "ncu") != nullptr &&
      (proton.backend == "auto" || proton.backend == "cupti")) {
    const std::string resolves =
        proton.backend == "auto" ? " (which resolves to cupti on NVIDIA)" : "";
    throw option_error(
        "proton", backend_key(request),
        fmt::format("ncu and proton with backend: {}{} cannot run together: both attach "
                    "through CUPTI, and on the H200 the pair fails (`RuntimeError: Failed to "
                    "execute cuptiSubscribe with error 39`, no hatchet written). Fix: run ncu "
                    "and proton in separate tests, or set `proton: {{backend: "
                    "instrumentation}}`.",
                    proton.backend, resolves));
  }
}

}  // namespace

const std::vector<std::string>& collector_names() {
  static const std::vector<std::string> names{
      "rocprof",  "ncu",      "sanitizer",      "callgrind",
      "proton",   "numerics", "layer_numerics", "amd_log"};
  return names;
}

void validate_collectors(const std::vector<collector_request>& requested) {
  reject_unknown_names(requested);
  std::optional<proton_options> proton;
  const collector_request* proton_request = nullptr;
  for (const auto& request : requested) {
    if (request.name == "rocprof") {
      (void)parse_rocprof_options(request.options);
    } else if (request.name == "ncu") {
      (void)parse_ncu_options(request.options);
    } else if (request.name == "callgrind") {
      (void)parse_callgrind_options(request.options);
    } else if (request.name == "proton") {
      proton = parse_proton_options(request.options);
      proton_request = &request;
    } else if (request.name == "sanitizer") {
      find_collector(request.name)->validate(request.options, requested);
    }
    // numerics, layer_numerics, amd_log: validated-only, any string options accepted.
  }
  check_callgrind_alone(requested);
  check_rocprof_with_ncu(requested);
  if (proton) check_proton_pairings(requested, *proton, *proton_request);
  // Guard 10 does not depend on the command, so it is refused here, where a CPU-only CI sees it,
  // and not only when wrapping.
  if (proton && proton->mode == "cli" && proton->backend == "roctracer") {
    throw option_error("proton", backend_key(*proton_request), roctracer_cli_pin_refusal());
  }
}

}  // namespace aorta
