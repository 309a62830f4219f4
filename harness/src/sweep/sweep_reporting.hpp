// The sweep's reporters: what `run_sweep(request, out, err)` shows, and the entry a command uses
// to add a reporter of its own (--events-jsonl) beside them.
#pragma once

#include "aorta/sweep.hpp"
#include "reporting/console_reporter.hpp"
#include "reporting/ctest_reporter.hpp"
#include "reporting/reporter_fanout.hpp"

#include <iosfwd>

namespace aorta::detail {

// The console (no progress lines under --quiet) and, with --ctest-measurements, CTest's
// measurements, both on `out`; diagnostics on `err`.
class sweep_console {
public:
  sweep_console(const sweep_request& request, std::ostream& out, std::ostream& err);
  [[nodiscard]] reporting::reporter_fanout& reporters() { return fanout_; }

private:
  reporting::console_reporter console_;
  reporting::ctest_reporter ctest_;
  reporting::reporter_fanout fanout_;
};

// The sweep, its account reported to `live` (held below --verbose until the verdict, as the
// console shows it). Throws as run_sweep does.
[[nodiscard]] sweep_outcome run_reported_sweep(const sweep_request& request,
                                               reporting::reporter& live);

}  // namespace aorta::detail
