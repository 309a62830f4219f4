#include "bisect/bisect_step.hpp"

#include "aorta/error.hpp"
#include "aorta/sweep.hpp"
#include "baseline/default_gate.hpp"
#include "sweep/checked_recipe.hpp"
#include "json_text.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <fstream>

namespace aorta::detail {
namespace fs = std::filesystem;
namespace {

std::optional<double> number_or_null(const nlohmann::json& row, const char* key) {
  const auto found = row.find(key);
  if (found == row.end() || !found->is_number()) return std::nullopt;
  return found->get<double>();
}

// The confound rows of one look's matrix.json, those the filter watches.
std::vector<watched_row> read_confound_rows(const fs::path& matrix, const row_filter& filter) {
  nlohmann::json document;
  try {
    document = read_json_file(matrix);
  } catch (const std::exception& e) {
    throw setup_error(
        fmt::format("bisect: cannot read the step's {}: {}", matrix.string(), e.what()));
  }
  std::vector<watched_row> rows;
  const auto confound = document.find("confound");
  if (confound == document.end() || !confound->is_object()) return rows;
  const auto listed = confound->find("rows");
  if (listed == confound->end() || !listed->is_array()) return rows;
  for (const auto& row : *listed) {
    if (!row.is_object()) continue;
    const std::string quantity = row.value("quantity", "");
    if (quantity != "(all)" && !filter.watches(quantity)) continue;
    rows.push_back({quantity, number_or_null(row, "reference_median"),
                    number_or_null(row, "cell_median"), number_or_null(row, "ratio"),
                    row.value("evidence", ""), row.value("verdict", "UNKNOWN")});
  }
  return rows;
}

// The summary sentence of cell head against base in a look's matrix.json; empty when absent.
std::string read_head_summary(const fs::path& matrix) {
  const nlohmann::json document = read_json_file(matrix);
  const auto confound = document.find("confound");
  if (confound == document.end() || !confound->is_object()) return {};
  const auto summaries = confound->find("summaries");
  if (summaries == confound->end() || !summaries->is_array()) return {};
  for (const auto& entry : *summaries) {
    if (entry.is_object() && entry.value("cell", "") == "head") return entry.value("sentence", "");
  }
  return {};
}

const watched_row* largest_ratio(const std::vector<const watched_row*>& rows) {
  const watched_row* best = nullptr;
  for (const auto* row : rows) {
    if (best == nullptr || row->ratio.value_or(0.0) > best->ratio.value_or(0.0)) best = row;
  }
  return best;
}

// The row a step's verdict rests on: the largest ratio among the rows of that verdict's kind.
const watched_row* deciding_row(const std::vector<watched_row>& rows, const std::string& verdict,
                                const std::vector<std::string>* tracked) {
  std::vector<const watched_row*> candidates;
  for (const auto& row : rows) {
    const bool counted = tracked == nullptr || std::find(tracked->begin(), tracked->end(),
                                                         row.quantity) != tracked->end();
    const bool of_kind = verdict == "BAD"         ? row.verdict == "SLOWER"
                         : verdict == "AMBIGUOUS" ? row.verdict == "AMBIGUOUS"
                                                  : true;
    if (counted && of_kind) candidates.push_back(&row);
  }
  return largest_ratio(candidates);
}

std::string look_name(int number, const std::string& commit, int look) {
  return fmt::format("steps/{}_{}_look{}", number, commit.substr(0, 12), look);
}

// One cells run: base the good commit's worktree, head the step's, COMMAND from each.
void run_look(const bisect_settings& settings, const step_request& request, int rounds, int look,
              const fs::path& output) {
  sweep_request cells;
  cells.recipe_path = settings.recipe;
  cells.output_dir = output;
  cells.ab_base = settings.command.front();
  cells.ab_head = settings.command.front();
  cells.ab_base_directory = request.base_worktree;
  cells.ab_head_directory = request.head_worktree;
  cells.command.assign(settings.command.begin() + 1, settings.command.end());
  cells.trials = rounds;
  cells.seed = settings.seed + static_cast<std::uint64_t>(request.number) * 100U +
               static_cast<std::uint64_t>(look);
  cells.confound_threshold = settings.threshold;
  cells.detail = console_detail::quiet;
  cells.ctest_measurements = false;
  fs::create_directories(output.parent_path());
  std::ofstream console(fs::path(output.string() + ".log"));
  const sweep_outcome outcome = run_sweep(cells, console, console);
  const int code = static_cast<int>(outcome.code);
  if (code > 128 && code < 160) {
    throw interrupted_error(code - 128, fmt::format("bisect: interrupted during step {} ({})",
                                                    request.number, output.string()));
  }
}

}  // namespace

bool row_filter::watches(const std::string& quantity) const {
  if (!quantities.empty()) {
    return std::find(quantities.begin(), quantities.end(), quantity) != quantities.end();
  }
  if (prefixes.empty()) return true;
  return std::any_of(prefixes.begin(), prefixes.end(),
                     [&](const std::string& prefix) { return quantity.starts_with(prefix); });
}

row_filter make_row_filter(const bisect_settings& settings) {
  row_filter filter;
  filter.quantities = settings.quantities;
  if (settings.gate.empty()) return filter;
  const gate_spec gate = parse_gate_flag(settings.gate);
  if (gate.time) filter.prefixes.emplace_back("time_ms(");
  if (gate.count) filter.prefixes.emplace_back("count(");
  if (gate.cycles) filter.prefixes.emplace_back("cycles(");
  if (gate.ir) filter.prefixes.emplace_back("ir(");
  if (gate.ncu) filter.prefixes.emplace_back("ncu(");
  if (filter.prefixes.empty()) {
    throw usage_error(fmt::format("bisect: --gate '{}' names no quantity kind to watch. Fix: name "
                                  "at least one of time, count, cycles, ir, ncu (e.g. 'time +5%')",
                                  settings.gate));
  }
  return filter;
}

std::string ends_verdict(const std::vector<watched_row>& rows) {
  const auto any = [&](const char* verdict) {
    return std::any_of(rows.begin(), rows.end(),
                       [&](const watched_row& row) { return row.verdict == verdict; });
  };
  if (any("SLOWER")) return "BAD";
  if (any("AMBIGUOUS")) return "AMBIGUOUS";
  const bool measured = std::any_of(
      rows.begin(), rows.end(), [](const watched_row& row) { return row.verdict != "UNKNOWN"; });
  return measured ? "GOOD" : "UNKNOWN";
}

std::string candidate_verdict(const std::vector<watched_row>& rows,
                              const std::vector<std::string>& tracked) {
  bool ambiguous = false;
  bool unknown = false;
  for (const auto& quantity : tracked) {
    const auto row = std::find_if(rows.begin(), rows.end(),
                                  [&](const watched_row& r) { return r.quantity == quantity; });
    if (row == rows.end() || row->verdict == "UNKNOWN") {
      unknown = true;
    } else if (row->verdict == "SLOWER") {
      return "BAD";
    } else if (row->verdict == "AMBIGUOUS") {
      ambiguous = true;
    }
  }
  if (ambiguous) return "AMBIGUOUS";
  return unknown || tracked.empty() ? "UNKNOWN" : "GOOD";
}

bisect_step run_bisect_step(const bisect_settings& settings, const step_request& request) {
  const row_filter filter = make_row_filter(settings);
  bisect_step step;
  step.number = request.number;
  step.commit = request.commit;
  const auto started = std::chrono::steady_clock::now();
  int rounds = settings.rounds;
  for (int look = 1;; ++look) {
    const std::string name = look_name(request.number, request.commit, look);
    run_look(settings, request, rounds, look, request.bisect_dir / name);
    step.rows = read_confound_rows(request.bisect_dir / name / "matrix.json", filter);
    step.summary = read_head_summary(request.bisect_dir / name / "matrix.json");
    step.verdict = request.tracked == nullptr ? ends_verdict(step.rows)
                                              : candidate_verdict(step.rows, *request.tracked);
    step.rounds = rounds;
    step.total_rounds += rounds;
    step.looks = look;
    step.directory = name;
    if (step.verdict != "AMBIGUOUS" || rounds >= settings.max_rounds) break;
    rounds = std::min(rounds * 2, settings.max_rounds);
  }
  step.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  if (const auto* row = deciding_row(step.rows, step.verdict, request.tracked)) {
    step.ratio = row->ratio;
    step.evidence = fmt::format("{}: {}", row->quantity, row->evidence);
  } else {
    step.evidence = step.rows.empty() ? "no watched confound row" : "";
  }
  return step;
}

}  // namespace aorta::detail
