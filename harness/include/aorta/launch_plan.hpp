// What will actually be executed: the wrapped argv and the changes to the child's environment.
#pragma once

#include <map>
#include <string>
#include <vector>

namespace aorta {

using env_map = std::map<std::string, std::string>;

// A snapshot of this process's environment.
[[nodiscard]] env_map current_environment();

struct launch_plan {
  std::vector<std::string> argv;
  env_map env_set;                     // set in the child (aorta owns the child's environment)
  std::vector<std::string> env_unset;  // removed from the child
  std::vector<std::string> warnings;   // printed to stderr before the launch

  // The environment the child sees: `base` with env_unset removed and env_set applied.
  [[nodiscard]] env_map child_environment(const env_map& base) const;
};

}  // namespace aorta
