// Noticing, while the payload runs, that it is hung after a complete capture (ROCm/aorta#434:
// Proton on Triton 3.8.0 can deadlock at exit after writing its file): every attaching
// collector's output reads without error, is non-empty, and has stayed unchanged for the grace
// period while the payload still runs. A probe is a walk of the collectors' directories (names,
// sizes, modification times); the readers run once each time that listing has changed and then
// held still for one probe, so files still being written are never parsed.
#pragma once

#include "aorta/collector.hpp"
#include "aorta/recipe.hpp"

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <vector>

namespace aorta::detail {

class capture_watch {
public:
  // `versions`: the trial's tool versions, so the watch reads as the trial's own read will.
  capture_watch(const recipe& spec, std::filesystem::path trial_dir, tool_version_map versions,
                std::chrono::milliseconds grace);

  // Whether any attaching collector is watched at all.
  [[nodiscard]] bool active() const noexcept { return !m_requests.empty(); }
  // True once the capture has been complete, valid and unchanged for the grace period.
  [[nodiscard]] bool hung();

private:
  [[nodiscard]] std::uint64_t listing_signature() const;
  [[nodiscard]] bool capture_complete() const;

  std::vector<const collector_request*> m_requests;
  std::filesystem::path m_trial_dir;
  tool_version_map m_versions;
  std::chrono::milliseconds m_grace;
  std::optional<std::uint64_t> m_signature;
  std::chrono::steady_clock::time_point m_unchanged_since{};
  bool m_judged = false;
  bool m_complete = false;
};

}  // namespace aorta::detail
