#include "aorta/launch_plan.hpp"

#include <algorithm>
#include <string_view>

extern char** environ;

namespace aorta {

env_map current_environment() {
  env_map env;
  for (char** entry = environ; entry != nullptr && *entry != nullptr; ++entry) {
    const std::string_view text(*entry);
    const auto equals = text.find('=');
    if (equals == std::string_view::npos) continue;
    env.emplace(std::string(text.substr(0, equals)), std::string(text.substr(equals + 1)));
  }
  return env;
}

env_map launch_plan::child_environment(const env_map& base) const {
  env_map env = base;
  for (const auto& name : env_unset) env.erase(name);
  for (const auto& [name, value] : env_set) env.insert_or_assign(name, value);
  return env;
}

}  // namespace aorta
