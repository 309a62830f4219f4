#include "captures/nvbench_samples.hpp"

#include "aorta/error.hpp"
#include "bounded_input.hpp"
#include "contained_path.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <system_error>

namespace aorta::detail {
namespace {

namespace fs = std::filesystem;

[[noreturn]] void fail_samples(const fs::path& json_file, const std::string& state,
                               const std::string& message) {
  throw capture_error(fmt::format("{}: benchmark state '{}': sample times ({}): {}",
                                  json_file.string(), state, nvbench_sample_times_tag, message));
}

// The sample file's path, refused unless it stays inside the JSON file's directory both as
// written and once symlinks are resolved: a capture must not make aorta read files elsewhere.
fs::path contained_sample_path(const fs::path& json_file, const std::string& state,
                               const std::string& filename) {
  const fs::path parent = json_file.parent_path().empty() ? fs::path(".") : json_file.parent_path();
  fs::path path;
  try {
    path = contained_path(parent, filename, "the sample file name", path_nesting::subdirectories);
  } catch (const usage_error& e) {
    fail_samples(json_file, state, e.what());
  }
  std::error_code error;
  const fs::path real_parent = fs::canonical(parent, error);
  const fs::path real_path = error ? fs::path() : fs::weakly_canonical(path, error);
  const bool inside = !error && std::mismatch(real_parent.begin(), real_parent.end(),
                                              real_path.begin(), real_path.end())
                                        .first == real_parent.end();
  if (!inside) {
    fail_samples(json_file, state,
                 fmt::format("'{}' resolves outside {} (a symlink?); nvbench writes it next to the "
                             "JSON file. Fix: keep the capture directory as nvbench wrote it",
                             filename, parent.string()));
  }
  return path;
}

}  // namespace

std::vector<double> read_nvbench_samples(const fs::path& json_file, const std::string& state,
                                         const nvbench_sample_file& where) {
  if (where.size < 1 || where.size > nvbench_max_samples) {
    fail_samples(
        json_file, state,
        fmt::format("\"size\" is {}; it must be 1 to {} samples", where.size, nvbench_max_samples));
  }
  const fs::path path = contained_sample_path(json_file, state, where.filename);
  std::string bytes;
  try {
    bytes = read_input_file(path, static_cast<std::uint64_t>(nvbench_max_samples) * 4,
                            "nvbench_max_samples");
  } catch (const input_error& e) {
    fail_samples(json_file, state,
                 fmt::format("{}. Fix: copy the '-bin' directory nvbench wrote next to the JSON "
                             "file with it, or re-run the benchmark",
                             e.what()));
  }
  const auto expected = static_cast<std::size_t>(where.size) * 4;
  if (bytes.size() != expected) {
    fail_samples(json_file, state,
                 fmt::format("{} holds {} bytes, but the summary declares {} float32 samples ({} "
                             "bytes): the file is truncated or not this state's. Fix: re-run the "
                             "benchmark",
                             path.string(), bytes.size(), where.size, expected));
  }
  std::vector<double> samples;
  samples.reserve(static_cast<std::size_t>(where.size));
  for (std::size_t at = 0; at < expected; at += 4) {
    std::uint32_t bits = 0;
    for (std::size_t b = 0; b < 4; ++b)
      bits |= std::uint32_t{static_cast<unsigned char>(bytes[at + b])} << (8 * b);
    const auto seconds = static_cast<double>(std::bit_cast<float>(bits));
    if (!std::isfinite(seconds) || seconds < 0.0) {
      fail_samples(json_file, state,
                   fmt::format("{}: sample {} is {}, not a time; the file is damaged",
                               path.string(), at / 4, seconds));
    }
    samples.push_back(seconds * 1e9);
  }
  return samples;
}

}  // namespace aorta::detail
