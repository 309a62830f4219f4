// Which card a rank runs on, from what the launcher and the host tell: CUDA_VISIBLE_DEVICES, the
// rank's local rank (LOCAL_RANK and the MPI equivalents) and the host's GPUs in nvidia-smi's
// order. rank-exec writes the answer into rank.json, so the gate can tell a slow card from a rank
// whose work is larger (docs/distributed.md, "Which card a rank ran on").
#pragma once

#include "aorta/launch_plan.hpp"

#include <filesystem>
#include <string>
#include <vector>

namespace aorta::detail {

struct rank_card {
  std::string card;    // "GPU-5d3c..." (nvidia-smi's UUID), or "GPU index 3" when no UUID is known
  std::string source;  // how aorta knows it; both empty when nothing tells
};

// LOCAL_RANK (torchrun), OMPI_COMM_WORLD_LOCAL_RANK (Open MPI), MPI_LOCALRANKID (MPICH, Intel
// MPI), SLURM_LOCALID (srun): the first that is set.
[[nodiscard]] const std::vector<std::string>& local_rank_variables();

// The host's NVIDIA GPUs' UUIDs in PCI bus order, which is nvidia-smi's index order, read from the
// driver's /proc/driver/nvidia/gpus/<bus id>/information; empty without the driver. Read here
// rather than by running nvidia-smi: every rank asks at its start, and a file read costs nothing.
[[nodiscard]] std::vector<std::string>
host_gpu_uuids(const std::filesystem::path& driver_dir = "/proc/driver/nvidia/gpus");

// 1. CUDA_VISIBLE_DEVICES with one entry: that device; with several: the entry the local rank
//    indexes (the torch.cuda.set_device(LOCAL_RANK) convention), when it is in range.
// 2. No CUDA_VISIBLE_DEVICES: the host's only GPU, or the one the local rank indexes.
// An entry that is a number names that index of `host_gpus` (its UUID when known); a UUID or a MIG
// name is kept as it is. Anything else: no card (empty).
[[nodiscard]] rank_card card_of_rank(const env_map& env, const std::vector<std::string>& host_gpus);

}  // namespace aorta::detail
