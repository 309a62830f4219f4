// CTest resource allocation → device visibility variables for the payload.
#pragma once

#include "aorta/launch_plan.hpp"

#include <optional>
#include <string>

namespace aorta::detail {

// When CTest gave this test GPUs (`RESOURCE_GROUPS gpus:N` + `--resource-spec-file`), the ids of
// CTEST_RESOURCE_GROUP_<i>_GPUS, comma-joined; nullopt when CTest allocated nothing.
[[nodiscard]] std::optional<std::string> ctest_allocated_gpus(const env_map& env);

// The variables to set so the payload sees exactly the allocated GPUs: CUDA_VISIBLE_DEVICES for
// NVIDIA and ROCR_VISIBLE_DEVICES for AMD (never HIP_VISIBLE_DEVICES, which Proton on AMD refuses;
// the proton collector translates whatever it must). Empty when nothing was allocated.
[[nodiscard]] env_map gpu_visibility(const env_map& env);

}  // namespace aorta::detail
