// Noticing, while the payload runs, that it is hung after a complete capture (ROCm/aorta#434:
// Proton on Triton 3.8.0 can deadlock at exit after writing its file): every attaching
// collector's output reads without error, is non-empty, and has stayed unchanged for the grace
// period while the payload still runs. A probe is a walk of the collectors' directories (names,
// sizes, modification times); the readers run once each time that listing has changed and then
// held still for one probe, so files still being written are never parsed.
//
// The probes and reads run on a thread of their own: a capture can take seconds to read, and
// hung() is asked from the loop that passes signals on and enforces the timeout, which nothing
// may delay.
#pragma once

#include "aorta/collector.hpp"
#include "aorta/recipe.hpp"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <filesystem>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

namespace aorta::detail {

class capture_watch {
public:
  // Starts probing once a second (every `probe_interval`) when any collector attaches.
  // `versions`: the trial's tool versions, so the watch reads as the trial's own read will.
  capture_watch(const recipe& spec, std::filesystem::path trial_dir, tool_version_map versions,
                std::chrono::milliseconds grace,
                std::chrono::milliseconds probe_interval = std::chrono::seconds(1));
  capture_watch(const capture_watch&) = delete;
  capture_watch& operator=(const capture_watch&) = delete;
  ~capture_watch();

  // Whether any attaching collector is watched at all.
  [[nodiscard]] bool active() const noexcept { return !m_requests.empty(); }
  // True once the capture has been complete, valid and unchanged for the grace period. Never
  // reads or lists anything: it returns what the watching thread last concluded.
  [[nodiscard]] bool hung() const noexcept { return m_hung.load(std::memory_order_acquire); }
  // Ends the watching thread (waiting for a read in flight); called once the payload has ended.
  void stop();

private:
  void watch_loop();
  void probe();
  [[nodiscard]] std::uint64_t listing_signature() const;
  [[nodiscard]] bool capture_complete() const;

  std::vector<const collector_request*> m_requests;
  std::filesystem::path m_trial_dir;
  tool_version_map m_versions;
  std::chrono::milliseconds m_grace;
  std::chrono::milliseconds m_probe_interval;
  // Touched by the watching thread alone.
  std::optional<std::uint64_t> m_signature;
  std::chrono::steady_clock::time_point m_unchanged_since{};
  bool m_judged = false;
  bool m_complete = false;
  // Shared with the caller.
  std::atomic<bool> m_hung{false};
  std::mutex m_mutex;
  std::condition_variable m_wake;
  bool m_stopping = false;
  std::thread m_thread;
};

}  // namespace aorta::detail
