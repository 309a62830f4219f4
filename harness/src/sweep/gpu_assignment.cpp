#include "sweep/gpu_assignment.hpp"

#include "aorta/error.hpp"

#include <fmt/format.h>

#include <charconv>
#include <filesystem>
#include <string_view>
#include <system_error>
#include <vector>

namespace aorta::detail {
namespace {

// CTEST_RESOURCE_GROUP_<i>_GPUS looks like "id:0,slots:1;id:3,slots:2".
std::vector<std::string> gpu_ids_of(std::string_view allocation, const std::string& variable) {
  std::vector<std::string> ids;
  while (!allocation.empty()) {
    const auto end = allocation.find(';');
    const std::string_view entry = allocation.substr(0, end);
    const auto id_at = entry.find("id:");
    if (id_at == std::string_view::npos) {
      throw setup_error(
          fmt::format("{}='{}' is not a CTest GPU allocation (expected 'id:<n>,slots:<k>[;...]')",
                      variable, allocation));
    }
    const std::string_view rest = entry.substr(id_at + 3);
    const std::string_view id = rest.substr(0, rest.find(','));
    if (id.empty()) {
      throw setup_error(fmt::format("{}='{}' has an entry with an empty id (expected "
                                    "'id:<n>,slots:<k>[;...]')",
                                    variable, allocation));
    }
    ids.emplace_back(id);
    if (end == std::string_view::npos) break;
    allocation.remove_prefix(end + 1);
  }
  return ids;
}

}  // namespace

std::optional<std::string> ctest_allocated_gpus(const env_map& env) {
  const auto count_it = env.find("CTEST_RESOURCE_GROUP_COUNT");
  if (count_it == env.end()) return std::nullopt;
  int groups = 0;
  const auto& text = count_it->second;
  const auto [end, parse_error] = std::from_chars(text.data(), text.data() + text.size(), groups);
  // Reading a malformed count as "nothing allocated" would let the payload see every GPU.
  if (parse_error != std::errc{} || end != text.data() + text.size() || groups < 0) {
    throw setup_error(
        fmt::format("CTEST_RESOURCE_GROUP_COUNT='{}' is not a non-negative integer; "
                    "it is set by CTest's resource allocation (--resource-spec-file), "
                    "unset it when running aorta by hand",
                    text));
  }
  std::string joined;
  for (int group = 0; group < groups; ++group) {
    const auto variable = fmt::format("CTEST_RESOURCE_GROUP_{}_GPUS", group);
    const auto it = env.find(variable);
    if (it == env.end()) continue;
    for (const auto& id : gpu_ids_of(it->second, variable)) {
      if (!joined.empty()) joined += ',';
      joined += id;
    }
  }
  if (joined.empty()) return std::nullopt;
  return joined;
}

gpu_vendors installed_gpu_vendors() {
  std::error_code ignored;
  gpu_vendors vendors;
  vendors.nvidia = std::filesystem::exists("/dev/nvidiactl", ignored);
  vendors.amd = std::filesystem::exists("/dev/kfd", ignored);
  return vendors;
}

env_map gpu_visibility(const env_map& env, gpu_vendors vendors) {
  const auto ids = ctest_allocated_gpus(env);
  if (!ids) return {};
  const bool unknown = !vendors.nvidia && !vendors.amd;
  env_map visibility;
  if (vendors.nvidia || unknown) visibility.emplace("CUDA_VISIBLE_DEVICES", *ids);
  if (vendors.amd || unknown) visibility.emplace("ROCR_VISIBLE_DEVICES", *ids);
  return visibility;
}

env_map gpu_visibility(const env_map& env) {
  return gpu_visibility(env, installed_gpu_vendors());
}

}  // namespace aorta::detail
