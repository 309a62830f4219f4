#include "sweep/trial_console.hpp"

#include "bounded_input.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <iterator>
#include <utility>
#include <vector>

#include <unistd.h>

namespace aorta::detail {
namespace {

// A reason can hold a table (the gate's); the verdict line takes its first line.
std::string reason_headline(const std::string& text) {
  const auto end = text.find('\n');
  std::string line = text.substr(0, end);
  while (!line.empty() && (line.back() == ':' || line.back() == ' ')) line.pop_back();
  return line;
}

std::string trial_name(const trial_record& trial) {
  return trial.cell ? fmt::format("cell {} trial {}", trial.cell->name, trial.trial_index)
                    : fmt::format("trial {}", trial.trial_index);
}

bool failed(verdict value) {
  return value == verdict::fail || value == verdict::error;
}

constexpr std::size_t tail_bytes = 2048;
constexpr std::size_t tail_lines = 10;

// The last lines of a log, read from its last tail_bytes only: a log may be gigabytes.
std::vector<std::string> last_lines(const std::filesystem::path& log) {
  input_file file = open_input_file(log);
  std::array<char, tail_bytes> data{};
  const std::uint64_t start = file.size() > tail_bytes ? file.size() - tail_bytes : 0;
  const ssize_t got = ::pread(file.fd(), data.data(), data.size(), static_cast<off_t>(start));
  if (got <= 0) return {};
  std::string text(data.data(), static_cast<std::size_t>(got));
  if (start > 0) text.erase(0, std::min(text.size(), text.find('\n') + 1));  // a partial line
  std::vector<std::string> lines;
  std::size_t begin = 0;
  while (begin < text.size()) {
    const auto end = std::min(text.find('\n', begin), text.size());
    lines.push_back(text.substr(begin, end - begin));
    begin = end + 1;
  }
  if (lines.size() > tail_lines) lines.erase(lines.begin(), lines.end() - tail_lines);
  return lines;
}

}  // namespace

std::string payload_log_tail(const std::filesystem::path& trial_dir, const std::string& label) {
  std::string text;
  for (const char* name : {"stdout.log", "stderr.log"}) {
    const auto log = trial_dir / name;
    std::error_code ignored;
    if (!std::filesystem::is_regular_file(log, ignored)) continue;
    try {
      const auto lines = last_lines(log);
      text +=
          fmt::format("aorta: {}: the payload's {} ({}){}\n", label, name, log.string(),
                      lines.empty() ? ": empty" : fmt::format(", last {} line(s):", lines.size()));
      for (const auto& line : lines) text += "  " + line + "\n";
    } catch (const input_error& e) {
      text +=
          fmt::format("aorta: {}: the payload's {} cannot be read: {}\n", label, name, e.what());
    }
  }
  return text;
}

void trial_console::trial_ended(const std::string& label, const trial_record& record,
                                std::vector<reporting::event> trial_events) {
  ++ended;
  if (live != nullptr) {
    live->report(reporting::progress_event{label, ended, planned, record.verdict,
                                           record.wall_seconds, reason_headline(record.reason)});
  }
  if (failed(record.verdict)) {
    failed_detail.insert(failed_detail.end(), std::make_move_iterator(trial_events.begin()),
                         std::make_move_iterator(trial_events.end()));
    last_detail.clear();
  } else {
    last_detail = std::move(trial_events);
  }
}

std::string verdict_line(const sweep_outcome& outcome, int planned_trials) {
  int passed = 0;
  int failures = 0;
  int skipped = 0;
  const trial_record* first_failure = nullptr;
  const trial_record* first_skip = nullptr;
  for (const auto& trial : outcome.trials) {
    if (failed(trial.verdict)) {
      ++failures;
      if (first_failure == nullptr) first_failure = &trial;
    } else if (trial.verdict == verdict::skip) {
      ++skipped;
      if (first_skip == nullptr) first_skip = &trial;
    } else {
      ++passed;
    }
  }
  const std::string counts = fmt::format("{} trial(s): {} passed, {} failed, {} skipped",
                                         outcome.trials.size(), passed, failures, skipped);
  const std::string judged = outcome.judgement.empty() ? "" : "; " + outcome.judgement;
  const int code = static_cast<int>(outcome.code);
  if (code > 128) {
    return fmt::format("aorta: INTERRUPTED (exit {}): stopped after {} of {} trial(s)", code,
                       outcome.trials.size(), planned_trials);
  }
  switch (outcome.code) {
  case exit_code::ok: return fmt::format("aorta: PASS: {}{}", counts, judged);
  case exit_code::skipped:
    return fmt::format("aorta: SKIP: {}",
                       first_skip != nullptr ? reason_headline(first_skip->reason) : counts);
  default: break;
  }
  if (first_failure != nullptr) {
    return fmt::format("aorta: FAIL: {}: {} ({}{})", trial_name(*first_failure),
                       reason_headline(first_failure->reason), counts, judged);
  }
  return fmt::format("aorta: FAIL: {}{}", counts,
                     judged.empty() ? "; the judgement after the trials failed (below)" : judged);
}

void report_verdict_and_detail(trial_console& console, const sweep_outcome& outcome,
                               reporting::event_recorder& after) {
  reporting::reporter& live = *console.live;
  live.report(reporting::run_verdict_event{
      verdict_line(outcome, std::max(console.planned, console.ended))});
  for (const auto& held : std::exchange(console.failed_detail, {})) live.report(held);
  if (console.detail != console_detail::quiet) {
    for (const auto& held : std::exchange(console.last_detail, {})) live.report(held);
  }
  after.replay(live);
  live.flush();
}

}  // namespace aorta::detail
