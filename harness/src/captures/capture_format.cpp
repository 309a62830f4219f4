#include "captures/capture_format.hpp"

#include "aorta/error.hpp"
#include "captures/bounded_input.hpp"

#include <algorithm>
#include <fstream>

namespace aorta::detail {
namespace fs = std::filesystem;
namespace {

constexpr std::size_t sniff_bytes = 8192;
constexpr std::size_t directory_file_limit = 4096;

// Through the bounded input layer: a FIFO named on the command line hung `view` here.
std::string head_of(const fs::path& file) {
  std::error_code ec;
  if (!fs::exists(file, ec)) return {};
  try {
    input_file in = open_input_file(file);
    std::string head(sniff_bytes, '\0');
    std::size_t have = 0;
    while (have < head.size()) {
      const std::size_t got = in.read_some(head.data() + have, head.size() - have);
      if (got == 0) break;
      have += got;
    }
    head.resize(have);
    return head;
  } catch (const input_error& e) {
    throw capture_error(e.what());
  }
}

char first_non_blank(const std::string& text) {
  const auto at = text.find_first_not_of(" \t\r\n");
  return at == std::string::npos ? '\0' : text[at];
}

bool contains(const std::string& text, std::string_view needle) {
  return text.find(needle) != std::string::npos;
}

}  // namespace

bool looks_like_chrome_trace(const fs::path& file) {
  const std::string head = head_of(file);
  const char first = first_non_blank(head);
  return (first == '{' || first == '[') && contains(head, "\"traceEvents\"");
}

std::optional<std::string> sniff_capture_file(const fs::path& file) {
  const std::string name = file.filename().string();
  if (name.starts_with("callgrind.out")) return "callgrind";
  // Proton names its outputs by format (<name>.hatchet_msgpack, <name>.chrome_trace, and the same
  // with .part_<phase> for periodic flushing); MessagePack has no text to sniff.
  if (name.ends_with(".hatchet_msgpack") || name.ends_with(".chrome_trace")) return "proton";
  if (name.ends_with(".db") && contains(name, "results")) return "rocprof";
  const std::string head = head_of(file);
  if (head.starts_with("# callgrind format") || head.starts_with("version: 1\ncreator: callgrind"))
    return "callgrind";
  const char first = first_non_blank(head);
  if (first == '[' || first == '{') {
    if (contains(head, "rocprofiler-sdk") || contains(head, "\"rocprofiler")) return "rocprof";
    if (contains(head, "\"frame\"") || contains(head, "\"children\"") ||
        contains(head, "\"traceEvents\"") || name.ends_with(".hatchet"))
      return "proton";
    return std::nullopt;
  }
  // ncu's CSV: its own `==PROF==` lines, or the "ID","Process ID",... / "Kernel Name" header.
  if (contains(head, "==PROF==") || contains(head, "\"Kernel Name\"") ||
      contains(head, "\"ID\",\"Process ID\""))
    return "ncu";
  if (contains(head, "Kernel_Name") || contains(head, "\"Kernel_Id\"")) return "rocprof";
  return std::nullopt;
}

std::vector<std::string> detect_capture_formats(const fs::path& path) {
  std::vector<std::string> found;
  std::error_code failure;
  if (!fs::is_directory(path, failure)) {
    if (auto format = sniff_capture_file(path)) found.push_back(*format);
    return found;
  }
  fs::recursive_directory_iterator walker(path, fs::directory_options::skip_permission_denied,
                                          failure);
  std::size_t looked_at = 0;
  for (; !failure && walker != fs::recursive_directory_iterator();
       walker.increment(failure)) {
    if (walker->is_symlink(failure) || !walker->is_regular_file(failure)) continue;
    if (++looked_at > directory_file_limit) break;
    if (auto format = sniff_capture_file(walker->path())) found.push_back(*format);
  }
  std::sort(found.begin(), found.end());
  found.erase(std::unique(found.begin(), found.end()), found.end());
  return found;
}

std::string describe_capture_format(const std::string& collector) {
  if (collector == "proton") return "a Proton capture (hatchet, hatchet_msgpack or chrome trace)";
  if (collector == "ncu") return "an ncu CSV";
  if (collector == "rocprof") return "a rocprofv3 capture";
  if (collector == "callgrind") return "a callgrind.out file";
  return collector;
}

}  // namespace aorta::detail
