#include "collectors/gbench/gbench_wrap.hpp"

namespace aorta {

std::vector<std::string> gbench_flags(const gbench_options& options,
                                      const std::filesystem::path& output_dir) {
  std::vector<std::string> flags{"--benchmark_out=" + (output_dir / "gbench.json").string(),
                                 "--benchmark_out_format=json"};
  if (options.repetitions) {
    flags.push_back("--benchmark_repetitions=" + std::to_string(*options.repetitions));
  }
  return flags;
}

}  // namespace aorta
