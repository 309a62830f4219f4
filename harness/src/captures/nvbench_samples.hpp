// nvbench's per-sample cold GPU times (`--jsonbin FILE`): besides the JSON summary, nvbench writes
// each state's sample times to a sidecar file and names it in a summary tagged
// "nv/json/bin:nv/cold/sample_times", whose "filename" is relative to the JSON file's directory
// ("FILE-bin/0.bin") and whose "size" is the number of samples. The file holds the times as
// little-endian float32 seconds, one after another, nothing else (NVIDIA/nvbench,
// nvbench/json_printer.cu, write_jsonbin_sidecar). The mean in the summary counts every sample;
// with the samples, the warm-up rule (warmup_launches.hpp) can drop the slow first ones.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace aorta::detail {

inline constexpr std::string_view nvbench_sample_times_tag = "nv/json/bin:nv/cold/sample_times";
// One sample file may hold this many samples (4 bytes each: 64 MiB). nvbench stops a state at
// its timeout (15 s by default), so even a 1 us kernel stays far below.
inline constexpr std::int64_t nvbench_max_samples = std::int64_t{1} << 24;

// Where a state's summary says its samples are.
struct nvbench_sample_file {
  std::string filename;   // as written: relative to the JSON file's directory
  std::int64_t size = 0;  // the number of samples the summary declares
};

// The samples of `state` (named in messages) in ns, in the order nvbench took them. Throws
// capture_error naming the JSON file, the state and the sample file when the name is absolute or
// leaves the JSON file's directory (also through a symlink), the file is not a regular file, is
// missing, is larger than nvbench_max_samples, does not hold exactly `size` float32 values, or
// holds a value that is negative or not finite.
[[nodiscard]] std::vector<double> read_nvbench_samples(const std::filesystem::path& json_file,
                                                       const std::string& state,
                                                       const nvbench_sample_file& where);

}  // namespace aorta::detail
