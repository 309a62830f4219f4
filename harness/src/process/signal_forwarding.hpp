// Catching SIGINT/SIGTERM/SIGHUP while a child runs, so they can be passed on to its process
// group: the child runs in a group of its own, so a Ctrl-C at the terminal reaches only aorta.
// A sweep holds one instance for its whole run too, so a signal between trials stops the run
// (with a record) instead of killing aorta outright.
#pragma once

#include <array>
#include <csignal>
#include <string>

namespace aorta::detail {

// The signals an interrupt of aorta may come as, in the fixed order take_pending() reports them.
inline constexpr std::array<int, 3> interrupt_signals{SIGINT, SIGTERM, SIGHUP};

// While at least one instance lives, SIGINT, SIGTERM and SIGHUP are caught (unless they were ignored when
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
  [[nodiscard]] std::array<int, 3> take_pending() noexcept;
  // The first of take_pending()'s signals, or 0.
  [[nodiscard]] int take_first_pending() noexcept;

private:
  std::array<unsigned, 3> m_seen{};
};

// The first of interrupt_signals (in take_pending()'s order) caught since the command began, that
// is since the first of the instances alive now was made; 0 while none lives. One baseline for
// the whole command: a reader snapshotting the count when it opened its file ignored a signal
// that came earlier (during the capture directory scan) and read on until its time limit. A long
// computation that must stop promptly (SQLite's progress handler during a rocpd read) asks this
// instead of taking the signals, so the instance's owner still finds them pending and stops.
[[nodiscard]] int interrupt_in_this_command() noexcept;
// "SIGINT"; "signal N" when the C library does not know the signal.
[[nodiscard]] std::string signal_label(int signal_number);

}  // namespace aorta::detail
