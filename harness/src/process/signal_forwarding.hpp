// Catching SIGINT/SIGTERM while a child runs, so they can be passed on to its process group:
// the child runs in a group of its own, so a Ctrl-C at the terminal reaches only aorta.
#pragma once

#include <array>
#include <csignal>

namespace aorta::detail {

// While at least one instance lives, SIGINT and SIGTERM are caught (unless they were ignored when
// the first instance was created) and counted; the previous dispositions come back when the last
// instance goes. Instances may live in several threads at once.
class signal_forwarding {
public:
  signal_forwarding();
  signal_forwarding(const signal_forwarding&) = delete;
  signal_forwarding& operator=(const signal_forwarding&) = delete;
  ~signal_forwarding();

  // Signals that arrived since the previous call (or since construction), in a fixed order;
  // 0 marks an empty slot. Safe to call from the thread that owns this instance.
  [[nodiscard]] std::array<int, 2> take_pending() noexcept;

private:
  std::array<unsigned, 2> m_seen{};
};

}  // namespace aorta::detail
