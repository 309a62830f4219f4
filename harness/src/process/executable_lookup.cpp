#include "process/executable_lookup.hpp"

#include "aorta/error.hpp"

#include <sys/stat.h>
#include <unistd.h>

namespace aorta::detail {

bool is_executable_file(const std::filesystem::path& path) {
  struct stat info {};
  if (::stat(path.c_str(), &info) != 0) return false;
  return S_ISREG(info.st_mode) && ::access(path.c_str(), X_OK) == 0;
}

std::optional<std::filesystem::path> search_path(std::string_view name,
                                                 const env_map& environment,
                                                 const std::filesystem::path& working_directory) {
  const auto path_variable = environment.find("PATH");
  if (name.empty() || path_variable == environment.end()) return std::nullopt;
  std::string_view rest(path_variable->second);
  while (true) {
    const auto colon = rest.find(':');
    const std::string_view entry = rest.substr(0, colon);
    const std::filesystem::path candidate =
        std::filesystem::path(entry.empty() ? std::string_view(".") : entry) / name;
    const std::filesystem::path as_seen_here =
        candidate.is_relative() && !working_directory.empty() ? working_directory / candidate
                                                              : candidate;
    if (is_executable_file(as_seen_here)) return candidate;
    if (colon == std::string_view::npos) return std::nullopt;
    rest.remove_prefix(colon + 1);
  }
}

std::string resolve_executable(const std::string& argv0, const env_map& environment,
                               const std::filesystem::path& working_directory) {
  if (argv0.find('/') != std::string::npos) return argv0;
  const auto path_variable = environment.find("PATH");
  if (path_variable == environment.end()) {
    throw setup_error("cannot start '" + argv0 +
                      "': not found on PATH (PATH is not set in the child's environment; set it "
                      "or give the program's full path)");
  }
  if (auto found = search_path(argv0, environment, working_directory)) return found->string();
  throw setup_error("cannot start '" + argv0 + "': not found on PATH (" + path_variable->second +
                    ")");
}

}  // namespace aorta::detail
