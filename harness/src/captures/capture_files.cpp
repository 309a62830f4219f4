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
  std::error_code ec;
  const auto options = fs::directory_options::skip_permission_denied;
  for (fs::recursive_directory_iterator it(dir, options, ec), end; !ec && it != end;
       it.increment(ec)) {
    if (it->symlink_status(ec).type() == fs::file_type::regular &&
        wanted(it->path().filename().string())) {
      files.push_back(it->path());
    }
  }
  if (ec) {
    throw capture_error(fmt::format("cannot list the {} output directory {}: {}", profiler,
                                    dir.string(), ec.message()));
  }
  std::sort(files.begin(), files.end());
  return files;
}

}  // namespace aorta::detail
