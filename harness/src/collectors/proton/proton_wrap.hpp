// How the proton collector attaches Triton's Proton profiler (docs/collectors.md; guards 9-10 of
// docs/guards.md), as pure functions of the typed options and an explicit environment.
#pragma once

#include "aorta/launch_plan.hpp"
#include "collectors/proton/proton_options.hpp"

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace aorta {

// The interpreter `python -m triton.profiler.proton` runs under, and why a fallback was taken.
struct python_choice {
  std::string interpreter;
  std::vector<std::string> warnings;
};

// A mode-cli command taken apart: the interpreter flags that stay in front of `-m`, and what
// Proton runs (`script.py args...` or `pytest args...`).
struct python_command {
  std::vector<std::string> interpreter_flags;
  std::vector<std::string> target;
};

// HIP_/CUDA_VISIBLE_DEVICES rewritten as ROCR_VISIBLE_DEVICES, which is all Proton accepts on AMD.
struct device_translation {
  std::vector<std::string> removed;                 // variables to unset in the child
  std::optional<std::string> rocr_visible_devices;  // the value ROCR_VISIBLE_DEVICES gets
  std::optional<std::string> warning;               // what was translated and why

  [[nodiscard]] bool empty() const noexcept { return removed.empty(); }
};

// `python`, `python3`, `python3.12`: the basename of `command` names a Python interpreter.
[[nodiscard]] bool is_python_interpreter(std::string_view command);

// $AORTA_PROTON_PYTHON (~ expanded) > argv[0] if it is a Python interpreter > for `pytest` (bare,
// looked up on env's PATH, or a path to it) the interpreter of its console script's shebang >
// `python3`.
// Never the `proton` console script, whose shebang names whatever interpreter installed Triton.
[[nodiscard]] python_choice resolve_python(const std::vector<std::string>& argv,
                                           const env_map& env);

// Rule 9: accepts `python [safe flags] script.py ...`, `python [safe flags] -m pytest ...` and
// `[path/]pytest ...`, the last two as a bare `pytest ...` target. Throws recipe_error otherwise,
// naming `proton: {mode: env}`.
[[nodiscard]] python_command split_python_command(const std::vector<std::string>& argv);

// Applies only to queue-intercepting backends (auto, rocprofiler, roctracer). Never mutates env.
[[nodiscard]] device_translation translate_device_variables(const proton_options& options,
                                                            const env_map& env);

// The AORTA_PROTON_* variables a mode-env payload reads to call proton.start() itself.
[[nodiscard]] env_map proton_env_bundle(const proton_options& options,
                                        const std::filesystem::path& output_dir);

// `<python> [flags] -m triton.profiler.proton -n <out>/proton [-b <backend>] --context <ctx>
//  --data <data> [--mode <m>] [-k triton] <target...>`. No `--`: Proton takes its target as an
// argparse remainder.
[[nodiscard]] std::vector<std::string> proton_cli_argv(const proton_options& options,
                                                       const std::filesystem::path& output_dir,
                                                       const std::string& python,
                                                       const python_command& command);

// Mode cli rewrites the argv (rule 10 is checked before the argv shape; throws recipe_error, or
// skip_error when the chosen interpreter does not exist); mode env leaves the argv alone and sets
// the bundle. Both apply the device translation. Warnings land in the plan.
[[nodiscard]] launch_plan proton_wrap(launch_plan inner, const proton_options& options,
                                      const std::filesystem::path& output_dir, const env_map& env);

// Mode cli with $AORTA_PROTON_PYTHON set to something that does not resolve: the reason; nullopt
// otherwise (without the override the interpreter comes from the command, checked at wrap time).
// Guard 10 (docs/guards.md): why a roctracer pin under mode: cli is refused. Checked when the
// recipe loads (it does not depend on the command) and again by proton_wrap.
[[nodiscard]] std::string roctracer_cli_pin_refusal();

[[nodiscard]] std::optional<std::string> proton_unavailable_reason(const proton_options& options,
                                                                   const env_map& env);

}  // namespace aorta
