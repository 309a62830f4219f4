// Attaching Proton: the mode-cli argv, the mode-env bundle and the AMD device-variable translation.
#include "collectors/proton/proton_wrap.hpp"

#include "aorta/error.hpp"
#include "collectors/executable_lookup.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace aorta {
namespace {

std::string session_name(const std::filesystem::path& output_dir) {
  return (output_dir / "proton").string();
}

void refuse_pinned_roctracer(const proton_options& options) {
  if (options.mode != "cli" || options.backend != "roctracer") return;
  throw recipe_error("proton: " + roctracer_cli_pin_refusal());
}

void apply_translation(launch_plan& plan, const device_translation& translation) {
  if (translation.empty()) return;
  for (const auto& name : translation.removed) {
    plan.env_set.erase(name);
    if (std::find(plan.env_unset.begin(), plan.env_unset.end(), name) == plan.env_unset.end()) {
      plan.env_unset.push_back(name);
    }
  }
  plan.env_set.insert_or_assign("ROCR_VISIBLE_DEVICES", *translation.rocr_visible_devices);
  plan.warnings.push_back(*translation.warning);
}

}  // namespace

device_translation translate_device_variables(const proton_options& options, const env_map& env) {
  if (!options.queue_intercepting()) return {};
  const auto hip = env.find("HIP_VISIBLE_DEVICES");
  const auto cuda = env.find("CUDA_VISIBLE_DEVICES");
  const auto rocr = env.find("ROCR_VISIBLE_DEVICES");
  // `auto` on NVIDIA is CUPTI, where a CUDA pin is real: only rewrite it once AMD is certain.
  const bool amd_established = options.amd_backend() || hip != env.end() || rocr != env.end();

  device_translation translation;
  if (hip != env.end()) translation.removed.push_back(hip->first);
  if (cuda != env.end() && amd_established) translation.removed.push_back(cuda->first);
  if (translation.empty()) return translation;

  const auto source = rocr != env.end() ? rocr : hip != env.end() ? hip : cuda;
  translation.rocr_visible_devices = source->second;
  const std::string why = fmt::format(
      "Proton's {} backend refuses HIP_VISIBLE_DEVICES and CUDA_VISIBLE_DEVICES on AMD GPUs and "
      "reads ROCR_VISIBLE_DEVICES",
      options.backend);
  const std::string removed = fmt::format("{}", fmt::join(translation.removed, " and "));
  if (rocr != env.end()) {
    translation.warning =
        fmt::format("proton: removed {} from the payload's environment and kept the existing "
                    "ROCR_VISIBLE_DEVICES='{}', which takes precedence: {}",
                    removed, source->second, why);
  } else {
    translation.warning = fmt::format(
        "proton: translated {}='{}' to ROCR_VISIBLE_DEVICES='{}' and removed {} from the "
        "payload's environment: {}",
        source->first, source->second, source->second, removed, why);
  }
  return translation;
}

env_map proton_env_bundle(const proton_options& options, const std::filesystem::path& output_dir) {
  env_map bundle{
      {"AORTA_PROTON_DIR", output_dir.string()},
      {"AORTA_PROTON_NAME", session_name(output_dir)},
      {"AORTA_PROTON_CONTEXT", options.context},
      {"AORTA_PROTON_DATA", options.data},
  };
  // With backend auto the payload passes backend=None and lets Proton choose.
  if (options.backend != "auto") bundle.emplace("AORTA_PROTON_BACKEND", options.backend);
  if (auto mode = options.mode_argument()) bundle.emplace("AORTA_PROTON_MODE", *mode);
  if (options.hook) bundle.emplace("AORTA_PROTON_HOOK", *options.hook);
  // For proton.finalize(output_format=...): the only place a format can be chosen.
  if (options.format) bundle.emplace("AORTA_PROTON_FORMAT", *options.format);
  return bundle;
}

std::vector<std::string> proton_cli_argv(const proton_options& options,
                                         const std::filesystem::path& output_dir,
                                         const std::string& python, const python_command& command) {
  std::vector<std::string> argv{python};
  argv.insert(argv.end(), command.interpreter_flags.begin(), command.interpreter_flags.end());
  argv.insert(argv.end(), {"-m", "triton.profiler.proton", "-n", session_name(output_dir)});
  if (options.backend != "auto") argv.insert(argv.end(), {"-b", options.backend});
  argv.insert(argv.end(), {"--context", options.context, "--data", options.data});
  if (auto mode = options.mode_argument()) argv.insert(argv.end(), {"--mode", *mode});
  if (options.hook) argv.insert(argv.end(), {"-k", *options.hook});
  argv.insert(argv.end(), command.target.begin(), command.target.end());
  return argv;
}

std::string roctracer_cli_pin_refusal() {
  return "cannot pin backend 'roctracer' under mode: cli: Proton's CLI brings the GPU runtime up "
         "before the payload only when '-b' is absent; with '-b roctracer' the tracer attaches "
         "too late and, on Triton <= 3.7.x, the run exits 0 with an empty ROOT in "
         "proton.hatchet; use proton: {backend: auto} (which resolves to roctracer on those "
         "versions), or, to keep roctracer as the amd-roctracer example does, switch the recipe "
         "to proton: {mode: env}";
}

launch_plan proton_wrap(launch_plan inner, const proton_options& options,
                        const std::filesystem::path& output_dir, const env_map& env) {
  const env_map child_env = inner.child_environment(env);
  if (options.mode == "cli") {
    refuse_pinned_roctracer(options);
    const python_command command = split_python_command(inner.argv);
    python_choice python = resolve_python(inner.argv, child_env);
    if (!detail::resolve_command(python.interpreter, child_env)) {
      throw skip_error(fmt::format(
          "proton: the Python interpreter '{}' was not found (as a file, or on $PATH); set "
          "$AORTA_PROTON_PYTHON to the interpreter that has Triton installed",
          python.interpreter));
    }
    inner.argv = proton_cli_argv(options, output_dir, python.interpreter, command);
    inner.warnings.insert(inner.warnings.end(), python.warnings.begin(), python.warnings.end());
  } else {
    for (auto& [name, value] : proton_env_bundle(options, output_dir)) {
      inner.env_set.insert_or_assign(name, value);
    }
  }
  apply_translation(inner, translate_device_variables(options, child_env));
  return inner;
}

std::optional<std::string> proton_unavailable_reason(const proton_options& options,
                                                     const env_map& env) {
  const auto override_entry = env.find("AORTA_PROTON_PYTHON");
  if (options.mode != "cli" || override_entry == env.end() || override_entry->second.empty()) {
    return std::nullopt;
  }
  const std::string python = detail::expand_home(override_entry->second, env);
  if (detail::resolve_command(python, env)) return std::nullopt;
  return fmt::format("proton: $AORTA_PROTON_PYTHON={} is not an executable file or a command on "
                     "$PATH; point it at the Python interpreter that has Triton installed",
                     python);
}

}  // namespace aorta
