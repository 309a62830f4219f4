// The hardware a profiled test belongs on. A GPU lane that requires its profilers (CMake
// AORTA_REQUIRE_PROFILER=ON) must fail when its own tests cannot run, yet report tests meant for
// another platform (rocprof on an NVIDIA lane, callgrind on a lane without valgrind) as not
// applicable rather than failed; so every recipe's platforms are derived from its collectors.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>

namespace aorta {

enum class platform : std::uint8_t { cpu = 1, nvidia = 2, amd = 4 };

// A set of platforms; the default is empty.
class platform_set {
public:
  constexpr platform_set() = default;
  constexpr platform_set(std::initializer_list<platform> members) {
    for (const platform member : members) m_bits |= static_cast<std::uint8_t>(member);
  }
  [[nodiscard]] static constexpr platform_set all() {
    return {platform::cpu, platform::nvidia, platform::amd};
  }

  [[nodiscard]] constexpr bool contains(platform member) const {
    return (m_bits & static_cast<std::uint8_t>(member)) != 0;
  }
  [[nodiscard]] constexpr bool empty() const { return m_bits == 0; }
  [[nodiscard]] constexpr platform_set intersect(platform_set other) const {
    platform_set result;
    result.m_bits = static_cast<std::uint8_t>(m_bits & other.m_bits);
    return result;
  }
  [[nodiscard]] constexpr platform_set unite(platform_set other) const {
    platform_set result;
    result.m_bits = static_cast<std::uint8_t>(m_bits | other.m_bits);
    return result;
  }
  constexpr bool operator==(const platform_set&) const = default;

private:
  std::uint8_t m_bits = 0;
};

// "cpu", "nvidia", "amd".
[[nodiscard]] std::string_view to_string(platform member) noexcept;
// "cpu, nvidia" in cpu, nvidia, amd order; "none" when empty.
[[nodiscard]] std::string to_string(platform_set members);

// "nvidia", "cpu,nvidia" or "all" (case-insensitive, spaces around commas allowed). Throws
// usage_error naming the bad word and the allowed ones.
[[nodiscard]] platform_set parse_platforms(std::string_view text);

}  // namespace aorta
