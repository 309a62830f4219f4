#include "captures/capture_files.hpp"

#include "aorta/error.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <system_error>

namespace aorta::detail {
namespace fs = std::filesystem;

std::vector<fs::path> list_capture_files(const fs::path& dir,
                                         const std::function<bool(const std::string&)>& wanted,
                                         std::string_view profiler) {
  std::vector<fs::path> files;
  // An explicit stack, not recursive_directory_iterator: its skip_permission_denied dropped an
  // unreadable subdirectory without a word (a partial callgrind capture was checked as whole),
  // and without it the error does not say which directory failed.
  std::vector<fs::path> pending{dir};
  while (!pending.empty()) {
    const fs::path current = std::move(pending.back());
    pending.pop_back();
    std::error_code ec;
    for (fs::directory_iterator it(current, ec), end; !ec && it != end; it.increment(ec)) {
      const fs::file_type type = it->symlink_status(ec).type();
      if (ec) break;
      if (type == fs::file_type::directory) {
        pending.push_back(it->path());
      } else if (type == fs::file_type::regular && wanted(it->path().filename().string())) {
        files.push_back(it->path());
      }
    }
    if (!ec) continue;
    if (current == dir) {
      throw capture_error(fmt::format("cannot list the {} output directory {}: {}", profiler,
                                      dir.string(), ec.message()));
    }
    throw capture_error(fmt::format(
        "cannot list {} inside the {} output directory {}: {}; the capture would be judged "
        "without what it holds. Fix: make it readable (chmod u+rx), or remove it if it is not "
        "part of the capture",
        current.string(), profiler, dir.string(), ec.message()));
  }
  std::sort(files.begin(), files.end());
  return files;
}

capture_inputs find_capture_inputs(const fs::path& dir_or_file,
                                   const std::function<bool(const std::string&)>& wanted,
                                   std::string_view profiler, std::string_view wanted_description) {
  capture_inputs found;
  std::error_code ec;
  const fs::path absolute = fs::absolute(dir_or_file, ec).lexically_normal();
  if (fs::is_regular_file(dir_or_file, ec)) {
    found.artifact_dir = absolute.parent_path();
    found.files.push_back(dir_or_file);
  } else if (fs::is_directory(dir_or_file, ec)) {
    found.artifact_dir = absolute;
    found.files = list_capture_files(dir_or_file, wanted, profiler);
    if (found.files.empty()) {
      found.notes.push_back(fmt::format("no {} under {}", wanted_description, absolute.string()));
    }
  } else {
    found.artifact_dir = absolute;
    found.notes.push_back(fmt::format("no {} output at {}", profiler, absolute.string()));
  }
  return found;
}

}  // namespace aorta::detail
