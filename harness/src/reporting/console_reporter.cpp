#include "reporting/console_reporter.hpp"

#include "reporting/event_visitor.hpp"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <ostream>

namespace aorta::reporting {
namespace {

bool failed_or_error(verdict value) {
  return value == verdict::fail || value == verdict::error;
}

std::string_view severity_prefix(severity level) {
  switch (level) {
  case severity::note: return "note: ";
  case severity::warning: return "warning: ";
  case severity::error: return "error: ";
  case severity::info: break;
  }
  return "";
}

std::string ticket_suffix(const std::string& ticket) {
  return ticket.empty() ? "" : fmt::format(" ({})", ticket);
}

// The command a trial launches, or in a dry run would launch with its environment changes.
void print_launch(std::ostream& out, const launch_event& e) {
  const std::string command = pasteable_command(e.argv);
  switch (e.kind) {
  case launch_kind::running:
    fmt::print(out, "aorta: {}: running: {}\n", e.trial, command);
    out.flush();  // the payload may run for hours: the reader sees what runs now
    return;
  case launch_kind::ran: fmt::print(out, "aorta: {}: ran: {}\n", e.trial, command); return;
  case launch_kind::dry_run: break;
  }
  fmt::print(out, "aorta: {}: would run: {}\n", e.trial, command);
  for (const auto& [name, value] : e.env_set)
    fmt::print(out, "aorta: {}: would set {}={}\n", e.trial, name, value);
  for (const auto& name : e.env_unset)
    fmt::print(out, "aorta: {}: would unset {}\n", e.trial, name);
}

// A failed trial check shows why below its line; a failed cell check's message ends its own lines.
void print_check(std::ostream& out, const check_event& e, const std::string& prefix) {
  const check_result& result = e.result;
  if (e.over_cells) {
    fmt::print(out, "aorta: cell check {}  {}  (actual {})\n", result.passed ? "PASS" : "FAIL",
               result.expression, result.actual);
    if (!result.passed) out << result.message;
  } else if (result.passed) {
    fmt::print(out, "{}check PASS  {}  (actual {})\n", prefix, result.expression, result.actual);
  } else {
    fmt::print(out, "{}check FAIL  {}\n{}\n", prefix, result.expression, result.message);
  }
}

}  // namespace

std::string pasteable_command(const std::vector<std::string>& argv) {
  std::string text;
  for (const auto& arg : argv) {
    if (!text.empty()) text += ' ';
    const bool plain =
        !arg.empty() && arg.find_first_of(" \t\n'\"\\$`;&|<>*?()") == std::string::npos;
    if (plain) {
      text += arg;
      continue;
    }
    text += '\'';
    for (const char c : arg) text += c == '\'' ? std::string("'\\''") : std::string(1, c);
    text += '\'';
  }
  return text;
}

console_reporter::console_reporter(std::ostream& out, std::ostream& err, console_options options)
    : out_(&out), err_(&err), options_(std::move(options)) {}

void console_reporter::flush() {
  out_->flush();
}

void console_reporter::report(const event& happened) {
  std::ostream& out = *out_;
  const auto stream = [this](channel to) -> std::ostream& {
    return to == channel::diagnostic ? *err_ : *out_;
  };
  std::visit(
      event_visitor{
          [&](const plan_event& e) {
            fmt::print(out, "aorta: recipe {}{}: {}\n", e.recipe, ticket_suffix(e.ticket),
                       e.layout);
          },
          [&](const launch_event& e) { print_launch(out, e); },
          [&](const trial_end_event& e) {
            fmt::print(out, "aorta: {}: payload {} after {:.2f} s\n", e.trial, e.ending,
                       e.wall_seconds);
          },
          [&](const check_event& e) { print_check(out, e, options_.check_prefix); },
          [&](const trial_verdict_event& e) {
            fmt::print(out, "aorta: {}: {}{}\n", e.trial, to_string(e.value),
                       e.reason.empty() ? "" : fmt::format(" ({})", e.reason));
          },
          [&](const progress_event& e) {
            if (!options_.progress) return;
            const std::string position = e.planned > 0 && e.position <= e.planned
                                             ? fmt::format("[{}/{}] ", e.position, e.planned)
                                             : "";
            const std::string seconds =
                e.wall_seconds > 0.0 ? fmt::format(" ({:.2f} s)", e.wall_seconds) : "";
            const std::string why = failed_or_error(e.value) || e.value == verdict::skip
                                        ? fmt::format(": {}", e.reason_headline)
                                        : "";
            fmt::print(out, "aorta: {}{}: {}{}{}\n", position, e.trial, to_string(e.value), seconds,
                       why);
            out.flush();
          },
          [&](const run_verdict_event& e) {
            fmt::print(out, "{}\n", e.line);
            out.flush();
          },
          [&](const measurements_event&) {},  // the CTest reporter's
          [&](const table_event& e) { out << e.text; },
          [&](const gate_event& e) { fmt::print(out, "aorta: {}\n", e.line); },
          [&](const cell_event& e) { fmt::print(out, "aorta: cell {}: {}\n", e.cell, e.text); },
          [&](const note_event& e) {
            fmt::print(stream(e.to), "{}: {}{}\n", e.source, severity_prefix(e.level), e.text);
          },
          [&](const text_event& e) { stream(e.to) << e.text; },
      },
      happened);
}

}  // namespace aorta::reporting
