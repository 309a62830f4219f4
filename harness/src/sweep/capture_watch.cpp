#include "sweep/capture_watch.hpp"

#include "aorta/collector.hpp"
#include "collectors/capture_reading.hpp"

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
                             tool_version_map versions, std::chrono::milliseconds grace)
    : m_trial_dir(std::move(trial_dir)), m_versions(std::move(versions)), m_grace(grace) {
  for (const auto& request : spec.collect) {
    const auto* collector = find_collector(request.name);
    if (collector != nullptr && collector->attaches()) m_requests.push_back(&request);
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
    // Unreadable means still being written, or never valid: either way not complete.
    try {
      const auto reading = read_one_capture(*request, m_trial_dir / request->name, m_versions);
      if (reading && (!reading->got || reading->empty)) return false;
    } catch (const std::exception&) {
      return false;
    }
  }
  return true;
}

bool capture_watch::hung() {
  if (!active()) return false;
  const auto now = std::chrono::steady_clock::now();
  const std::uint64_t signature = listing_signature();
  if (signature != m_signature) {
    m_signature = signature;
    m_unchanged_since = now;
    m_judged = false;
    return false;
  }
  // Read once per settled listing: files still being written are never parsed.
  if (!m_judged) {
    m_complete = capture_complete();
    m_judged = true;
  }
  return m_complete && now - m_unchanged_since >= m_grace;
}

}  // namespace aorta::detail
