#include "reporting/jsonl_reporter.hpp"

#include "reporting/event_visitor.hpp"

#include "aorta/schema.hpp"
#include "json_text.hpp"

#include <nlohmann/json.hpp>

#include <ostream>

namespace aorta::reporting {
namespace {

std::string_view channel_name(channel to) {
  return to == channel::diagnostic ? "diagnostic" : "account";
}

std::string_view severity_name(severity level) {
  switch (level) {
  case severity::note: return "note";
  case severity::warning: return "warning";
  case severity::error: return "error";
  case severity::info: break;
  }
  return "info";
}

std::string_view launch_name(launch_kind kind) {
  switch (kind) {
  case launch_kind::dry_run: return "dry_run";
  case launch_kind::ran: return "ran";
  case launch_kind::running: break;
  }
  return "running";
}

nlohmann::json fields_of(const event& happened) {
  using json = nlohmann::json;
  return std::visit(
      event_visitor{
          [](const plan_event& e) {
            return json{{"event", "plan"},
                        {"recipe", e.recipe},
                        {"ticket", e.ticket},
                        {"layout", e.layout}};
          },
          [](const launch_event& e) {
            json env = json::object();
            for (const auto& [name, value] : e.env_set) env[name] = value;
            return json{{"event", "launch"}, {"trial", e.trial}, {"kind", launch_name(e.kind)},
                        {"argv", e.argv},    {"env_set", env},   {"env_unset", e.env_unset}};
          },
          [](const trial_end_event& e) {
            return json{{"event", "trial_end"},
                        {"trial", e.trial},
                        {"ending", e.ending},
                        {"wall_seconds", e.wall_seconds}};
          },
          [](const check_event& e) {
            json value = nullptr;
            if (e.result.value) value = *e.result.value;
            return json{{"event", "check"},
                        {"expression", e.result.expression},
                        {"passed", e.result.passed},
                        {"expected", e.result.expected},
                        {"actual", e.result.actual},
                        {"value", value},
                        {"message", e.result.message},
                        {"over_cells", e.over_cells}};
          },
          [](const trial_verdict_event& e) {
            return json{{"event", "trial_verdict"},
                        {"trial", e.trial},
                        {"verdict", to_string(e.value)},
                        {"reason", e.reason}};
          },
          [](const progress_event& e) {
            return json{{"event", "progress"},           {"trial", e.trial},
                        {"position", e.position},        {"planned", e.planned},
                        {"verdict", to_string(e.value)}, {"wall_seconds", e.wall_seconds},
                        {"reason", e.reason_headline}};
          },
          [](const run_verdict_event& e) {
            return json{{"event", "run_verdict"}, {"line", e.line}};
          },
          [](const measurements_event& e) {
            json items = json::array();
            for (const auto& item : e.items)
              items.push_back(json{{"name", item.name}, {"value", item.value}});
            return json{{"event", "measurements"}, {"items", items}};
          },
          [](const table_event& e) {
            return json{{"event", "table"}, {"name", e.name}, {"text", e.text}};
          },
          [](const gate_event& e) {
            return json{{"event", "gate"}, {"line", e.line}};
          },
          [](const cell_event& e) {
            return json{{"event", "cell"}, {"cell", e.cell}, {"text", e.text}};
          },
          [](const note_event& e) {
            return json{{"event", "note"},
                        {"level", severity_name(e.level)},
                        {"text", e.text},
                        {"channel", channel_name(e.to)},
                        {"source", e.source}};
          },
          [](const text_event& e) {
            return json{{"event", "text"}, {"text", e.text}, {"channel", channel_name(e.to)}};
          },
      },
      happened);
}

}  // namespace

std::string event_json(const event& happened) {
  nlohmann::json line = fields_of(happened);
  line["schema"] = schemas::events.name;
  line["schema_version"] = schemas::events.version;
  return detail::dump_json(line);
}

jsonl_reporter::jsonl_reporter(std::ostream& out) : out_(&out) {}

void jsonl_reporter::report(const event& happened) {
  *out_ << event_json(happened) << '\n';
}

void jsonl_reporter::flush() {
  out_->flush();
}

}  // namespace aorta::reporting
