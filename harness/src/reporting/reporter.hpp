// Stages never print: they emit events to a reporter, and each reporter decides what its reader
// sees (the console's lines, CTest's measurement tags, a JSON line per event). As in
// google/benchmark, where the runner hands runs to a BenchmarkReporter, and nvbench, whose printers
// sit behind one multiplexer, a new output is a new reporter and no stage changes.
//
// Events are added, never renamed: every reporter's visitor must then say what it does with the
// new one (a std::visit over an incomplete overload set does not compile).
#pragma once

#include "aorta/check.hpp"
#include "aorta/trial_record.hpp"

#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace aorta::reporting {

// Whom a line is for: the run's account (stdout; a console may hold it until the verdict) or a
// diagnostic the person needs now (stderr; never held back).
enum class channel { account, diagnostic };

// What a run is about to do: the recipe and how its trials or cells are laid out.
struct plan_event {
  std::string recipe;
  std::string ticket;  // empty when the recipe names none
  std::string layout;  // "collectors [proton], 3 trial(s), 1 check(s)" or the cells' schedule
};

// A payload launched, what a dry run would launch, or (for a failed trial whose lines were held)
// what ran: the argv a person can paste back.
enum class launch_kind { running, dry_run, ran };
struct launch_event {
  std::string trial;  // "trial 0", "cell base trial 2"
  std::vector<std::string> argv;
  launch_kind kind = launch_kind::running;
  std::vector<std::pair<std::string, std::string>> env_set;  // shown by a dry run only
  std::vector<std::string> env_unset;                        // shown by a dry run only
};

// The payload ended: how (exit status, signal, timeout) and after how long.
struct trial_end_event {
  std::string trial;
  std::string ending;  // as process_result::describe says it: "exit 0", a signal, a timeout
  double wall_seconds = 0.0;
};

// One check judged. `over_cells`: a cell-addressed check of a cells run.
struct check_event {
  check_result result;
  bool over_cells = false;
};

// A trial's verdict, once its checks are judged (reason empty on a plain pass).
struct trial_verdict_event {
  std::string trial;
  verdict value = verdict::pass;
  std::string reason;
};

// One trial filed while a console holds the trial's own lines: its place in the run ("[3/40]",
// when planned > 0), verdict, duration and the first line of its reason.
struct progress_event {
  std::string trial;
  int position = 0;
  int planned = 0;  // 0: unknown
  verdict value = verdict::pass;
  double wall_seconds = 0.0;  // 0: not launched
  std::string reason_headline;
};

// The run's verdict in one line (PASS, FAIL, SKIP or INTERRUPTED with the counts and first reason).
struct run_verdict_event {
  std::string line;
};

// Numbers a dashboard keeps per test (CTest's measurements): a metric, a check's actual value, a
// gate row's median and delta, a confound ratio. The value is already the exact text to keep.
struct measurement {
  std::string name;
  std::string value;
};
struct measurements_event {
  std::vector<measurement> items;
};

// A rendered table (the trial's metrics, the confound rows, the gate rows): already aligned text,
// one or more lines each ending in a newline.
struct table_event {
  std::string name;  // "metrics", "confound", "gate"
  std::string text;
};

// One line of the regression gate's account ("gate: extra trial ...", "gate PASS ...").
struct gate_event {
  std::string line;
};

// One line about one cell of a cells run (its plan, or why it cannot run here).
struct cell_event {
  std::string cell;
  std::string text;
};

// A line that belongs to no event above. `source` names the program part ("aorta",
// "aorta rank-exec").
enum class severity { info, note, warning, error };
struct note_event {
  severity level = severity::info;
  std::string text;
  channel to = channel::account;
  std::string source = "aorta";
};

// Lines shown as they are (a payload log's tail, a failed check's context), each ending in a
// newline.
struct text_event {
  std::string text;
  channel to = channel::account;
};

using event = std::variant<plan_event, launch_event, trial_end_event, check_event,
                           trial_verdict_event, progress_event, run_verdict_event,
                           measurements_event, table_event, gate_event, cell_event, note_event,
                           text_event>;

class reporter {
 public:
  reporter() = default;
  reporter(const reporter&) = delete;
  reporter& operator=(const reporter&) = delete;
  virtual ~reporter() = default;

  virtual void report(const event& happened) = 0;
  // The reader is about to wait (a payload runs): whatever is buffered goes out now.
  virtual void flush() {}
};

// A reporter that drops every event: for callers that want the result and no account of it.
class silent_reporter final : public reporter {
 public:
  void report(const event&) override {}
};

// A plain line of the run's account, as the console shows it: "aorta: TEXT".
inline void say(reporter& to, std::string text) {
  to.report(note_event{severity::info, std::move(text)});
}

}  // namespace aorta::reporting
