#include "process/signal_forwarding.hpp"

#include <atomic>
#include <cstring>
#include <string>
#include <mutex>

namespace aorta::detail {
namespace {

constexpr const auto& forwarded_signals = interrupt_signals;

// Lock-free atomics are async-signal-safe; the handler does nothing else. Counters (rather than
// flags) let every concurrent run see each delivery.
std::array<std::atomic<unsigned>, 3> g_deliveries{};
// g_deliveries when the first instance alive now was made (and again when the last one went, so
// that no delivery counts while none lives).
std::array<std::atomic<unsigned>, 3> g_at_command_start{};
static_assert(std::atomic<unsigned>::is_always_lock_free);

std::mutex g_install_mutex;
int g_users = 0;
std::array<struct sigaction, 3> g_previous{};
std::array<bool, 3> g_installed{};

void mark_command_start() noexcept {
  for (std::size_t i = 0; i < forwarded_signals.size(); ++i)
    g_at_command_start[i].store(g_deliveries[i].load(std::memory_order_relaxed),
                                std::memory_order_relaxed);
}

extern "C" void count_delivery(int signal_number) {
  for (std::size_t i = 0; i < forwarded_signals.size(); ++i) {
    if (forwarded_signals[i] == signal_number) {
      g_deliveries[i].fetch_add(1, std::memory_order_relaxed);
    }
  }
}

}  // namespace

signal_forwarding::signal_forwarding() {
  const std::lock_guard lock(g_install_mutex);
  if (g_users++ == 0) {
    mark_command_start();
    for (std::size_t i = 0; i < forwarded_signals.size(); ++i) {
      g_installed[i] = false;
      if (::sigaction(forwarded_signals[i], nullptr, &g_previous[i]) != 0) continue;
      // An ignored signal stays ignored: whoever started aorta that way meant the whole tree.
      if (g_previous[i].sa_handler == SIG_IGN) continue;
      struct sigaction action {};
      action.sa_handler = count_delivery;
      sigemptyset(&action.sa_mask);
      action.sa_flags = 0;  // no SA_RESTART: let a blocking poll() return EINTR promptly
      g_installed[i] = ::sigaction(forwarded_signals[i], &action, nullptr) == 0;
    }
  }
  for (std::size_t i = 0; i < forwarded_signals.size(); ++i) {
    m_seen[i] = g_deliveries[i].load(std::memory_order_relaxed);
  }
}

signal_forwarding::~signal_forwarding() {
  const std::lock_guard lock(g_install_mutex);
  if (--g_users == 0) {
    for (std::size_t i = 0; i < forwarded_signals.size(); ++i) {
      if (g_installed[i]) ::sigaction(forwarded_signals[i], &g_previous[i], nullptr);
      g_installed[i] = false;
    }
    mark_command_start();
  }
}

std::array<int, 3> signal_forwarding::take_pending() noexcept {
  std::array<int, 3> pending{};
  for (std::size_t i = 0; i < forwarded_signals.size(); ++i) {
    const unsigned now = g_deliveries[i].load(std::memory_order_relaxed);
    if (now != m_seen[i]) {
      m_seen[i] = now;
      pending[i] = forwarded_signals[i];
    }
  }
  return pending;
}

int interrupt_in_this_command() noexcept {
  for (std::size_t i = 0; i < forwarded_signals.size(); ++i) {
    if (g_deliveries[i].load(std::memory_order_relaxed) !=
        g_at_command_start[i].load(std::memory_order_relaxed))
      return forwarded_signals[i];
  }
  return 0;
}

std::string signal_label(int signal_number) {
  const char* abbreviation = ::sigabbrev_np(signal_number);
  return abbreviation != nullptr ? std::string("SIG") + abbreviation
                                 : "signal " + std::to_string(signal_number);
}

int signal_forwarding::take_first_pending() noexcept {
  for (const int signal_number : take_pending()) {
    if (signal_number != 0) return signal_number;
  }
  return 0;
}

}  // namespace aorta::detail
