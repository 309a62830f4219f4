// CTest resource allocation → device visibility variables for the payload.
#pragma once

#include "aorta/launch_plan.hpp"

#include <optional>
#include <string>

namespace aorta::detail {

// When CTest gave this test GPUs (`RESOURCE_GROUPS gpus:N` + `--resource-spec-file`), the ids of
// CTEST_RESOURCE_GROUP_<i>_GPUS, comma-joined; nullopt when CTest allocated nothing.
[[nodiscard]] std::optional<std::string> ctest_allocated_gpus(const env_map& env);

// Which GPU drivers this machine has (their device nodes).
struct gpu_vendors {
  bool nvidia = false;
  bool amd = false;
};
[[nodiscard]] gpu_vendors installed_gpu_vendors();

// The variables to set so the payload sees exactly the allocated GPUs: CUDA_VISIBLE_DEVICES on
// NVIDIA, ROCR_VISIBLE_DEVICES on AMD, both only when the machine has both drivers or neither can
// be seen. Never HIP_VISIBLE_DEVICES, which Proton on AMD refuses. Setting ROCR_ on an NVIDIA
// machine would be harmful, not merely useless: the proton collector reads its presence as "this is
// AMD" and then drops CUDA_VISIBLE_DEVICES. Empty when CTest allocated nothing.
[[nodiscard]] env_map gpu_visibility(const env_map& env, gpu_vendors vendors);
[[nodiscard]] env_map gpu_visibility(const env_map& env);

}  // namespace aorta::detail
