#include "collectors/executable_lookup.hpp"

#include "aorta/error.hpp"

#include <fmt/format.h>

#include <system_error>
#include <unistd.h>

namespace aorta::detail {

std::string expand_home(std::string_view value, const env_map& env) {
  const bool home_relative = value == "~" || value.starts_with("~/");
  const auto home = env.find("HOME");
  if (!home_relative || home == env.end() || home->second.empty()) return std::string(value);
  return home->second + std::string(value.substr(1));
}

std::optional<std::filesystem::path> resolve_command(std::string_view command, const env_map& env) {
  if (command.find('/') != std::string_view::npos) {
    if (is_executable_file(command)) return std::filesystem::path(command);
    return std::nullopt;
  }
  return search_path(command, env);
}

std::string resolve_tool(const env_map& env, std::string_view variable,
                         std::string_view default_name, std::string_view what_for,
                         std::string_view fix) {
  const auto override_entry = env.find(std::string(variable));
  if (override_entry != env.end() && !override_entry->second.empty()) {
    const std::string value = expand_home(override_entry->second, env);
    if (value.find('/') != std::string::npos) {
      if (is_executable_file(value)) return value;
      throw skip_error(fmt::format(
          "{}: ${}={} is not an executable file; point ${} at the {} executable, or unset it to "
          "use {} from $PATH",
          what_for, variable, value, variable, default_name, default_name));
    }
    if (auto found = search_path(value, env)) return found->string();
    throw skip_error(fmt::format(
        "{}: ${}={} was not found on $PATH; set ${} to the full path of the {} executable",
        what_for, variable, value, variable, default_name));
  }
  if (auto found = search_path(default_name, env)) return found->string();
  throw skip_error(fmt::format("{}: {} was not found on $PATH; {}, or set ${} to its full path",
                               what_for, default_name, fix, variable));
}

std::string resolve_tool_or_standard(const env_map& env, std::string_view variable,
                                     std::string_view default_name, std::string_view what_for,
                                     std::string_view fix,
                                     const std::vector<std::filesystem::path>& standard_locations) {
  const auto override_entry = env.find(std::string(variable));
  const bool overridden = override_entry != env.end() && !override_entry->second.empty();
  if (!overridden && !search_path(default_name, env)) {
    for (const auto& candidate : standard_locations) {
      if (is_executable_file(candidate)) return candidate.string();
    }
  }
  return resolve_tool(env, variable, default_name, what_for, fix);
}

}  // namespace aorta::detail
