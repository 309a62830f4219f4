#include "collectors/nvbench/nvbench_wrap.hpp"

#include <fmt/format.h>

namespace aorta {

std::vector<std::string> nvbench_flags(const nvbench_options& options,
                                       const std::filesystem::path& output_dir) {
  std::vector<std::string> flags{options.sample_times ? "--jsonbin" : "--json",
                                 (output_dir / "nvbench.json").string()};
  if (options.devices) flags.insert(flags.end(), {"--devices", *options.devices});
  if (options.min_samples) {
    flags.insert(flags.end(), {"--min-samples", std::to_string(*options.min_samples)});
  }
  // {} prints the shortest text that reads back as the same double.
  if (options.min_time) flags.insert(flags.end(), {"--min-time", fmt::format("{}", *options.min_time)});
  if (options.timeout) flags.insert(flags.end(), {"--timeout", fmt::format("{}", *options.timeout)});
  return flags;
}

}  // namespace aorta
