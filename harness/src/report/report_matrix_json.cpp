// The report's report.json, written one entry at a time (json_pretty_writer): the same bytes as
// the DOM of every cell's summary, kernels and values printed by document_text, which for a cell of
// 200,000 metrics was 250 MB of the report's 359 MB peak.
#include "aorta/schema.hpp"
#include "json_pretty_writer.hpp"
#include "report/report_model.hpp"

#include <functional>
#include <map>
#include <string>
#include <unordered_map>
#include <variant>
#include <vector>

namespace aorta::detail {
namespace {

using json = nlohmann::json;
using member_writer = std::function<void(json_pretty_writer&)>;

// An object's members in the order nlohmann prints them (sorted keys): the report's own, then each
// key of the sweep's objects (`kept`, first one first) that none before it has, as the sweep wrote
// it.
class object_members {
public:
  void own(std::string key, member_writer write) {
    m_members.emplace(std::move(key), std::move(write));
  }
  void keep(const std::vector<const json*>& kept) {
    for (const json* object : kept) {
      for (const auto& [key, value] : object->items()) m_members.emplace(key, &value);
    }
  }
  void write(json_pretty_writer& out) const {
    out.begin_object();
    for (const auto& [key, member] : m_members) {
      out.key(key);
      if (const auto* write = std::get_if<member_writer>(&member)) {
        (*write)(out);
      } else {
        out.value(*std::get<const json*>(member));
      }
    }
    out.end();
  }

private:
  std::map<std::string, std::variant<member_writer, const json*>> m_members;
};

void text_member(json_pretty_writer& out, std::string_view key, std::string_view text) {
  out.key(key);
  out.string(text);
}

void number_member(json_pretty_writer& out, std::string_view key, double value) {
  out.key(key);
  out.number(value);
}

void write_string_array(json_pretty_writer& out, const std::vector<std::string>& items) {
  out.begin_array();
  for (const auto& item : items) out.string(item);
  out.end();
}

void write_metrics_summary(json_pretty_writer& out, const cell_report& cell) {
  out.begin_object();
  for (const auto& [name, stats] : cell.metrics_summary) {
    out.key(name);
    out.begin_object();
    number_member(out, "max", stats.max);
    number_member(out, "mean", stats.mean);
    number_member(out, "min", stats.min);
    out.key("n");
    out.number(std::uint64_t{stats.n});
    out.end();
  }
  out.end();
}

void write_top_kernels(json_pretty_writer& out, const cell_report& cell) {
  out.begin_array();
  for (const kernel_row* row : cell.last_top_kernels) {
    out.begin_object();
    text_member(out, "collector", row->collector);
    out.key("launches");
    if (row->launches) {
      out.number(*row->launches);
    } else {
      out.null();
    }
    text_member(out, "name", row->name);
    number_member(out, "total_ms", row->total_ms);
    out.end();
  }
  out.end();
}

// The last trial's text and list metrics; numbers are in the summary.
void write_last_values(json_pretty_writer& out, const cell_report& cell) {
  out.begin_object();
  for (const auto* entry : cell.last_text_values) {
    const auto& [name, value] = *entry;
    if (const auto* text = std::get_if<std::string>(&value)) {
      out.key(name);
      out.string(*text);
    } else if (const auto* list = std::get_if<std::vector<std::string>>(&value)) {
      out.key(name);
      write_string_array(out, *list);
    }
  }
  out.end();
}

void write_cell(json_pretty_writer& out, const cell_report& cell,
                const std::vector<const json*>& kept) {
  object_members members;
  const auto count = [](std::size_t value) {
    return [value](json_pretty_writer& w) { w.number(std::uint64_t{value}); };
  };
  members.own("name", [&cell](json_pretty_writer& w) { w.string(cell.name); });
  members.own("trials", count(cell.trials.size()));
  members.own("passed_count", count(cell.passed));
  members.own("failed_count", count(cell.failed));
  members.own("skipped_count", count(cell.skipped));
  members.own("error_count", count(cell.errored));
  members.own("failure_rate", [&cell](json_pretty_writer& w) { w.number(cell.failure_rate); });
  members.own("metrics_summary",
              [&cell](json_pretty_writer& w) { write_metrics_summary(w, cell); });
  members.own("top_kernels", [&cell](json_pretty_writer& w) { write_top_kernels(w, cell); });
  members.own("last_trial_values", [&cell](json_pretty_writer& w) { write_last_values(w, cell); });
  members.own("trial_results", [&cell](json_pretty_writer& w) {
    w.begin_array();
    for (const auto& trial : cell.trials) w.string(trial.result_path);
    w.end();
  });
  members.keep(kept);
  members.write(out);
}

// The sweep's cells by name, each name's in the sweep's order: searching every swept cell for each
// of the report's made a sweep of n cells cost n * n.
std::unordered_map<std::string, std::vector<const json*>> swept_cells_by_name(const json& sweep) {
  std::unordered_map<std::string, std::vector<const json*>> by_name;
  const auto cells = sweep.find("cells");
  if (cells == sweep.end()) return by_name;
  for (const auto& swept : *cells) {
    const auto name = swept.find("name");
    if (name != swept.end() && name->is_string()) {
      by_name[name->get<std::string>()].push_back(&swept);
    }
  }
  return by_name;
}

void write_cells(json_pretty_writer& out, const report_model& model) {
  const auto swept = model.sweep_matrix
                         ? swept_cells_by_name(*model.sweep_matrix)
                         : std::unordered_map<std::string, std::vector<const json*>>{};
  const std::vector<const json*> none;
  out.begin_array();
  for (const auto& cell : model.cells) {
    const auto found = swept.find(cell.name);
    write_cell(out, cell, found == swept.end() ? none : found->second);
  }
  out.end();
}

void write_stale(json_pretty_writer& out, const report_model& model) {
  out.begin_array();
  for (const auto& old : model.stale) {
    out.begin_object();
    text_member(out, "result", old.result_path);
    text_member(out, "started_at", old.started_at);
    text_member(out, "verdict", to_string(old.outcome));
    out.end();
  }
  out.end();
}

}  // namespace

void write_report_json(std::ostream& stream, const report_model& model) {
  json_pretty_writer out(stream);
  object_members members;
  members.own("schema", [](json_pretty_writer& w) { w.string(schemas::matrix.name); });
  members.own("schema_version", [](json_pretty_writer& w) {
    w.number(std::uint64_t{static_cast<std::uint64_t>(schemas::matrix.version)});
  });
  members.own("generated_at", [&model](json_pretty_writer& w) { w.string(model.generated_at); });
  members.own("run_started_at",
              [&model](json_pretty_writer& w) { w.string(model.run_started_at); });
  members.own("stale_results", [&model](json_pretty_writer& w) { write_stale(w, model); });
  members.own("trials",
              [&model](json_pretty_writer& w) { w.number(std::uint64_t{model.trial_count}); });
  members.own("cells", [&model](json_pretty_writer& w) { write_cells(w, model); });
  members.own("skipped_files",
              [&model](json_pretty_writer& w) { write_string_array(w, model.skipped_files); });
  // The sweep's keys the report does not write: its cell checks, confound verdicts, seed.
  if (model.sweep_matrix) members.keep({&*model.sweep_matrix});
  members.write(out);
  out.finish();
  stream << '\n';
}

}  // namespace aorta::detail
