#include "sweep/tool_versions.hpp"

#include "aorta/collector.hpp"

namespace aorta::detail {

std::map<std::string, std::string> tool_versions(const recipe& spec,
                                                 const std::vector<std::string>& command,
                                                 const env_map& environment) {
  std::map<std::string, std::string> versions{{"aorta", AORTA_VERSION}};
  for (const auto& request : spec.collect) {
    const auto* collector = find_collector(request.name);
    if (collector == nullptr || !collector->attaches()) continue;
    for (auto& [key, value] : collector->probe_versions(*config_of(request), command, environment)) {
      versions.insert_or_assign(key, std::move(value));
    }
  }
  return versions;
}

}  // namespace aorta::detail
