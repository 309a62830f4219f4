#include "process/executable_lookup.hpp"

#include "aorta/error.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <string_view>

namespace aorta::detail {
namespace {

bool is_executable_file(const std::filesystem::path& candidate) {
  struct stat info {};
  if (::stat(candidate.c_str(), &info) != 0) return false;
  return S_ISREG(info.st_mode) && ::access(candidate.c_str(), X_OK) == 0;
}

}  // namespace

std::string resolve_executable(const std::string& argv0, const env_map& environment,
                               const std::filesystem::path& working_directory) {
  if (argv0.find('/') != std::string::npos) return argv0;

  const auto path_variable = environment.find("PATH");
  if (path_variable == environment.end()) {
    throw setup_error("cannot start '" + argv0 +
                      "': not found on PATH (PATH is not set in the child's environment; set it "
                      "or give the program's full path)");
  }
  const std::string& search_path = path_variable->second;

  if (!argv0.empty()) {
    std::string_view rest(search_path);
    while (true) {
      const auto colon = rest.find(':');
      const std::string_view entry = rest.substr(0, colon);
      // The child execs `candidate` after its chdir, so a relative one is checked from there too.
      const std::filesystem::path candidate =
          std::filesystem::path(entry.empty() ? std::string_view(".") : entry) / argv0;
      const std::filesystem::path as_seen_here =
          candidate.is_relative() && !working_directory.empty() ? working_directory / candidate
                                                                : candidate;
      if (is_executable_file(as_seen_here)) return candidate.string();
      if (colon == std::string_view::npos) break;
      rest.remove_prefix(colon + 1);
    }
  }
  throw setup_error("cannot start '" + argv0 + "': not found on PATH (" + search_path + ")");
}

}  // namespace aorta::detail
