// One JSON object per line per event (`--events-jsonl FILE`): what a run did, for a program to read
// while it runs or after, without parsing the console. Every object has "event" (plan, launch,
// trial_end, check, trial_verdict, progress, run_verdict, measurements, table, gate, cell, note,
// text) and that event's fields (docs/output-files.md, "events.jsonl").
#pragma once

#include "reporting/reporter.hpp"

#include <iosfwd>
#include <string>

namespace aorta::reporting {

class jsonl_reporter final : public reporter {
public:
  explicit jsonl_reporter(std::ostream& out);
  void report(const event& happened) override;
  void flush() override;

private:
  std::ostream* out_;
};

// The event as its one line of JSON, without the newline. Bytes that are not UTF-8 (a payload's
// log) are replaced by U+FFFD, as in every JSON file aorta writes.
[[nodiscard]] std::string event_json(const event& happened);

}  // namespace aorta::reporting
