#include "collectors/format_detection.hpp"

#include "bounded_input.hpp"

#include <algorithm>

namespace aorta::detail {
namespace fs = std::filesystem;
namespace {

constexpr std::size_t sniff_bytes = 8192;
constexpr std::size_t directory_file_limit = 4096;

}  // namespace

file_sample sample_file(const fs::path& file) {
  file_sample sample{file, file.filename().string(), {}};
  // Through the bounded input layer: a FIFO or device has no head (opening one for a blocking read
  // would hang), and the type is checked on what was opened, not on the name beforehand.
  try {
    input_file in = open_input_file(file);
    sample.head.resize(sniff_bytes);
    std::size_t have = 0;
    while (have < sample.head.size()) {
      const std::size_t got = in.read_some(sample.head.data() + have, sample.head.size() - have);
      if (got == 0) break;
      have += got;
    }
    sample.head.resize(have);
  } catch (const input_error&) {
    sample.head.clear();
  }
  return sample;
}

const collector_base* recognise_capture_file(const fs::path& file) {
  const file_sample sample = sample_file(file);
  for (const auto* collector : collectors()) {
    if (collector->attaches() && collector->recognises(sample)) return collector;
  }
  return nullptr;
}

std::vector<std::string> detect_capture_formats(const fs::path& path) {
  std::vector<std::string> found;
  std::error_code failure;
  if (!fs::is_directory(path, failure)) {
    if (const auto* collector = recognise_capture_file(path))
      found.emplace_back(collector->name());
    return found;
  }
  fs::recursive_directory_iterator walker(path, fs::directory_options::skip_permission_denied,
                                          failure);
  std::size_t looked_at = 0;
  for (; !failure && walker != fs::recursive_directory_iterator(); walker.increment(failure)) {
    if (walker->is_symlink(failure) || !walker->is_regular_file(failure)) continue;
    if (++looked_at > directory_file_limit) break;
    if (const auto* collector = recognise_capture_file(walker->path()))
      found.emplace_back(collector->name());
  }
  std::sort(found.begin(), found.end());
  found.erase(std::unique(found.begin(), found.end()), found.end());
  return found;
}

std::string describe_capture_format(const std::string& collector) {
  const auto* known = find_collector(collector);
  return known == nullptr ? collector : known->format_description();
}

}  // namespace aorta::detail
