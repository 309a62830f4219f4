#include "report/report_sweep_matrix.hpp"

#include "aorta/error.hpp"
#include "aorta/schema.hpp"
#include "json_sax_routing.hpp"
#include "json_text.hpp"

#include <fmt/format.h>

#include <cstdint>
#include <string>
#include <system_error>
#include <vector>

namespace aorta::detail {
namespace fs = std::filesystem;
using json = nlohmann::json;

namespace {

// Why `document` is not a matrix.json whose kept keys this aorta can carry over; "" when it is.
std::string shape_problem(const json& document) {
  if (!document.is_object()) return "it is not a JSON object";
  const auto schema = document.find("schema");
  if (schema == document.end() || !schema->is_string() ||
      schema->get<std::string>() != schemas::matrix.name) {
    return fmt::format("its \"schema\" is not \"{}\"", schemas::matrix.name);
  }
  const auto version = document.find("schema_version");
  if (version == document.end() || !version->is_number_integer() || *version < 1 ||
      *version > schemas::matrix.version) {
    return fmt::format("its \"schema_version\" is not one this aorta reads (1 to {}); upgrade "
                       "aorta to report it",
                       schemas::matrix.version);
  }
  if (const auto checks = document.find("checks"); checks != document.end()) {
    if (!checks->is_array()) return "its \"checks\" is not an array";
    for (const auto& check : *checks) {
      if (!check.is_object() || !check.contains("expression") || !check["expression"].is_string() ||
          !check.contains("passed") || !check["passed"].is_boolean()) {
        return "an entry of its \"checks\" lacks a text \"expression\" or a boolean \"passed\"";
      }
    }
  }
  if (const auto confound = document.find("confound"); confound != document.end()) {
    if (!confound->is_null() && (!confound->is_object() || !confound->contains("baseline_cell") ||
                                 !(*confound)["baseline_cell"].is_string())) {
      return "its \"confound\" is neither null nor an object with a text \"baseline_cell\"";
    }
  }
  if (const auto cells = document.find("cells"); cells != document.end()) {
    if (!cells->is_array()) return "its \"cells\" is not an array";
    for (const auto& cell : *cells) {
      if (!cell.is_object() || !cell.contains("name") || !cell["name"].is_string()) {
        return "an entry of its \"cells\" lacks a text \"name\"";
      }
    }
  }
  return "";
}

// Builds a matrix.json's DOM without the values of the report's own keys. A sweep's matrix.json
// holds every cell's metric summary, and one an earlier aorta's report rewrote holds every
// metric's: for 200,000 metrics its DOM was 200 MB of a 211 MB peak, none of it kept.
class sweep_matrix_sax : public routed_dom_sax<sweep_matrix_sax> {
public:
  explicit sweep_matrix_sax(json& root) : m_builder(root, true) {}

  bool key(std::string& name) {
    if (m_skipped_depth > 0) return true;
    const role where = m_frames.back();
    if ((where == role::top && listed(report_matrix_keys, name)) ||
        (where == role::cell && listed(report_cell_keys, name))) {
      m_skip_next = true;
      return true;
    }
    m_key = name;
    return m_builder.key(name);
  }

private:
  friend class routed_dom_sax<sweep_matrix_sax>;
  enum class role { top, cells, cell, other };

  template <std::size_t n>
  static bool listed(const std::array<std::string_view, n>& keys, std::string_view name) {
    for (const std::string_view key : keys) {
      if (key == name) return true;
    }
    return false;
  }

  template <typename Event>
  bool scalar(const Event& event) {
    if (m_skipped_depth > 0) return true;
    if (m_skip_next) {
      m_skip_next = false;
      return true;
    }
    return event(m_builder);
  }

  bool open(bool object, std::size_t n) {
    if (m_skipped_depth > 0 || m_skip_next) {
      m_skip_next = false;
      ++m_skipped_depth;
      return true;
    }
    role made = role::other;
    if (m_frames.empty()) {
      made = object ? role::top : role::other;
    } else if (m_frames.back() == role::top && !object && m_key == "cells") {
      made = role::cells;
    } else if (m_frames.back() == role::cells && object) {
      made = role::cell;
    }
    m_frames.push_back(made);
    return object ? m_builder.start_object(n) : m_builder.start_array(n);
  }

  bool close(bool object) {
    if (m_skipped_depth > 0) {
      --m_skipped_depth;
      return true;
    }
    m_frames.pop_back();
    return object ? m_builder.end_object() : m_builder.end_array();
  }

  builder m_builder;
  std::vector<role> m_frames;
  std::string m_key;
  bool m_skip_next = false;
  std::size_t m_skipped_depth = 0;
};

// read_json_file's bounds and errors, without the report's own values.
json read_matrix_document(const fs::path& file) {
  const std::string text = read_input_file(file, max_json_file_bytes, "max_json_file_bytes");
  check_json_text(text);
  json document;
  sweep_matrix_sax handler(document);
  (void)json::sax_parse(text, &handler);
  return document;
}

}  // namespace

std::optional<json> read_sweep_matrix(const fs::path& results_dir) {
  const fs::path file = results_dir / "matrix.json";
  std::error_code ignored;
  if (!fs::exists(fs::symlink_status(file, ignored))) return std::nullopt;
  const auto refuse = [&file](const std::string& why) {
    return error(exit_code::failed,
                 fmt::format("report: {}: {}. It may hold a cells sweep's checks and confound "
                             "verdicts, which no result.json holds, and report.json would show the "
                             "run without them. Fix: run the sweep again to rewrite it, or move "
                             "the file away to report without them",
                             file.string(), why));
  };
  json document;
  try {
    document = read_matrix_document(file);
  } catch (const json_input_error& failure) {
    throw refuse(fmt::format("not valid JSON: {}", failure.what()));
  } catch (const input_error& failure) {
    throw refuse(failure.what());
  }
  if (const std::string problem = shape_problem(document); !problem.empty()) throw refuse(problem);
  return document;
}

std::string kept_sweep_line(const json& sweep) {
  if (const auto incomplete = sweep.find("incomplete");
      incomplete != sweep.end() && incomplete->is_string()) {
    return fmt::format("matrix.json: the cells run is incomplete ({}): no cell check or confound "
                       "verdict was judged; run the sweep again for them",
                       incomplete->get<std::string>());
  }
  std::string checks_text;
  if (const auto checks = sweep.find("checks"); checks != sweep.end() && !checks->empty()) {
    std::size_t passed = 0;
    for (const auto& check : *checks) passed += check["passed"].get<bool>() ? 1 : 0;
    checks_text = fmt::format("the sweep's {} cell check(s) ({} passed, {} failed)", checks->size(),
                              passed, checks->size() - passed);
  }
  std::string confound_text;
  if (const auto confound = sweep.find("confound");
      confound != sweep.end() && confound->is_object()) {
    confound_text =
        fmt::format("{} confound verdicts against {}", checks_text.empty() ? "the sweep's" : "its",
                    (*confound)["baseline_cell"].get<std::string>());
    // A row still AMBIGUOUS is said, never left to read as a green.
    const auto counts = confound->find("verdict_counts");
    if (counts != confound->end() && counts->is_object()) {
      const auto ambiguous = counts->find("AMBIGUOUS");
      if (ambiguous != counts->end() && ambiguous->is_number_integer() && *ambiguous > 0) {
        confound_text += fmt::format(" ({} still AMBIGUOUS)", ambiguous->get<long long>());
      }
    }
  }
  if (checks_text.empty() && confound_text.empty()) return "";
  if (checks_text.empty()) return "report.json keeps " + confound_text;
  if (confound_text.empty()) return "report.json keeps " + checks_text;
  return fmt::format("report.json keeps {} and {}", checks_text, confound_text);
}

}  // namespace aorta::detail
