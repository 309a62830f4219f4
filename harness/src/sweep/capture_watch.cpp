#include "sweep/capture_watch.hpp"

#include "aorta/collector.hpp"
#include "collectors/capture_reading.hpp"

#include <csignal>
#include <pthread.h>
#include <string_view>
#include <system_error>

namespace aorta::detail {
namespace {

// FNV-1a: the listing only needs to tell "changed" from "unchanged".
void mix(std::uint64_t& hash, std::string_view bytes) {
  for (const char c : bytes) {
    hash ^= static_cast<unsigned char>(c);
    hash *= 1099511628211ULL;
  }
}

void mix(std::uint64_t& hash, std::uint64_t value) {
  mix(hash, std::string_view(reinterpret_cast<const char*>(&value), sizeof value));
}

// A directory tree bigger than this is not walked further; its first entries still change.
constexpr int max_listed_entries = 100'000;

}  // namespace

capture_watch::capture_watch(const recipe& spec, std::filesystem::path trial_dir,
                             tool_version_map versions, std::chrono::milliseconds grace,
                             std::chrono::milliseconds probe_interval)
    : m_trial_dir(std::move(trial_dir)), m_versions(std::move(versions)), m_grace(grace),
      m_probe_interval(probe_interval) {
  for (const auto& request : spec.collect) {
    const auto* collector = find_collector(request.name);
    if (collector != nullptr && collector->attaches()) m_requests.push_back(&request);
  }
  if (active()) m_thread = std::thread([this] { watch_loop(); });
}

capture_watch::~capture_watch() { stop(); }

void capture_watch::stop() {
  {
    const std::lock_guard lock(m_mutex);
    m_stopping = true;
  }
  m_wake.notify_all();
  if (m_thread.joinable()) m_thread.join();
}

void capture_watch::watch_loop() {
  // Every signal stays with the thread that runs the payload: an interrupt taken here would not
  // wake its poll() (signal_forwarding relies on that EINTR).
  sigset_t all;
  sigfillset(&all);
  ::pthread_sigmask(SIG_BLOCK, &all, nullptr);
  std::unique_lock lock(m_mutex);
  while (!m_stopping) {
    lock.unlock();
    probe();
    lock.lock();
    m_wake.wait_for(lock, m_probe_interval, [this] { return m_stopping; });
  }
}

std::uint64_t capture_watch::listing_signature() const {
  std::uint64_t hash = 14695981039346656037ULL;
  int listed = 0;
  for (const auto* request : m_requests) {
    std::error_code ec;
    std::filesystem::recursive_directory_iterator walk(m_trial_dir / request->name, ec);
    for (; !ec && walk != std::filesystem::recursive_directory_iterator() && listed < max_listed_entries;
         walk.increment(ec), ++listed) {
      const auto& entry = *walk;
      mix(hash, entry.path().native());
      std::error_code ignored;
      if (entry.is_regular_file(ignored)) {
        mix(hash, static_cast<std::uint64_t>(entry.file_size(ignored)));
        mix(hash, static_cast<std::uint64_t>(
                      entry.last_write_time(ignored).time_since_epoch().count()));
      }
    }
  }
  return hash;
}

bool capture_watch::capture_complete() const {
  for (const auto* request : m_requests) {
    // Unreadable means still being written, or never valid: either way not complete. Only
    // emptiness is asked here, so the call tree is not built.
    try {
      const auto reading = read_one_capture(*request, m_trial_dir / request->name, m_versions,
                                            false);
      if (reading && (!reading->got || reading->empty)) return false;
    } catch (const std::exception&) {
      return false;
    }
  }
  return true;
}

void capture_watch::probe() {
  const auto now = std::chrono::steady_clock::now();
  const std::uint64_t signature = listing_signature();
  if (signature != m_signature) {
    m_signature = signature;
    m_unchanged_since = now;
    m_judged = false;
    m_hung.store(false, std::memory_order_release);
    return;
  }
  // Read once per settled listing: files still being written are never parsed.
  if (!m_judged) {
    m_complete = capture_complete();
    m_judged = true;
  }
  m_hung.store(m_complete && now - m_unchanged_since >= m_grace, std::memory_order_release);
}

}  // namespace aorta::detail
