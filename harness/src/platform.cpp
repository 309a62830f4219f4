#include "aorta/platform.hpp"

#include "aorta/error.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cctype>

namespace aorta {
namespace {

constexpr std::array<platform, 3> every_platform{platform::cpu, platform::nvidia, platform::amd};

std::string trimmed_lower(std::string_view word) {
  while (!word.empty() && std::isspace(static_cast<unsigned char>(word.front()))) {
    word.remove_prefix(1);
  }
  while (!word.empty() && std::isspace(static_cast<unsigned char>(word.back()))) {
    word.remove_suffix(1);
  }
  std::string lowered(word);
  std::transform(lowered.begin(), lowered.end(), lowered.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return lowered;
}

}  // namespace

std::string_view to_string(platform member) noexcept {
  switch (member) {
  case platform::cpu: return "cpu";
  case platform::nvidia: return "nvidia";
  case platform::amd: return "amd";
  }
  return "unknown";
}

std::string to_string(platform_set members) {
  std::string text;
  for (const platform member : every_platform) {
    if (!members.contains(member)) continue;
    if (!text.empty()) text += ", ";
    text += to_string(member);
  }
  return text.empty() ? "none" : text;
}

platform_set parse_platforms(std::string_view text) {
  if (trimmed_lower(text) == "all") return platform_set::all();
  platform_set result;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t comma = std::min(text.find(',', start), text.size());
    const std::string word = trimmed_lower(text.substr(start, comma - start));
    const auto known = std::find_if(every_platform.begin(), every_platform.end(),
                                    [&](platform member) { return to_string(member) == word; });
    if (known == every_platform.end()) {
      throw usage_error(fmt::format(
          "--platforms '{}': '{}' is not a platform; use a comma-separated list of cpu, nvidia, "
          "amd, or all (e.g. --platforms nvidia)",
          text, word));
    }
    result = result.unite(platform_set{*known});
    start = comma + 1;
  }
  return result;
}

}  // namespace aorta
