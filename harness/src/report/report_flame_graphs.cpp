#include "report/report_flame_graphs.hpp"

#include "aorta/error.hpp"
#include "collectors/format_detection.hpp"
#include "contained_path.hpp"
#include "diff/diff_capture_reading.hpp"
#include "diff/diff_flame_graph.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace aorta::detail {
namespace fs = std::filesystem;
namespace {

// A cells run compares a handful of cells; a matrix.json naming more pairs than this is not one
// whose captures are worth reading again for a picture.
constexpr std::size_t flame_pair_limit = 16;

const cell_report* cell_named(const report_model& model, const std::string& name) {
  const auto found = std::find_if(model.cells.begin(), model.cells.end(),
                                  [&](const cell_report& cell) { return cell.name == name; });
  return found == model.cells.end() || found->trials.empty() ? nullptr : &*found;
}

// The last trial's directory: result_path is the report's own walk relative to the results
// directory; contained_path keeps even a strange one inside it.
std::optional<fs::path> last_trial_dir(const fs::path& results_dir, const cell_report& cell) {
  const std::string relative =
      fs::path(cell.trials.back().result_path).parent_path().generic_string();
  try {
    return contained_path(results_dir, relative, "a report's trial", path_nesting::subdirectories);
  } catch (const error&) {
    return std::nullopt;
  }
}

comparison_flame draw_pair(const fs::path& results_dir, const report_model& model,
                           const std::string& cell_name, const std::string& reference_name) {
  comparison_flame flame{cell_name, reference_name, {}, {}, {}};
  const cell_report* cell = cell_named(model, cell_name);
  const cell_report* reference = cell_named(model, reference_name);
  if (cell == nullptr || reference == nullptr) {
    flame.why_not = "no trial of one of the two cells is in this directory";
    return flame;
  }
  const auto cell_dir = last_trial_dir(results_dir, *cell);
  const auto reference_dir = last_trial_dir(results_dir, *reference);
  if (!cell_dir || !reference_dir) {
    flame.why_not = "a last trial lies outside the results directory";
    return flame;
  }
  const auto formats = detect_capture_formats(*cell_dir);
  const auto reference_formats = detect_capture_formats(*reference_dir);
  const auto common = std::find_if(formats.begin(), formats.end(), [&](const std::string& f) {
    return std::find(reference_formats.begin(), reference_formats.end(), f) !=
           reference_formats.end();
  });
  if (common == formats.end()) {
    flame.why_not = "the two last trials hold no capture of one profiler";
    return flame;
  }
  flame.collector = *common;
  try {
    const capture before = read_capture_as(reference_dir->string(), flame.collector);
    const capture after = read_capture_as(cell_dir->string(), flame.collector);
    flame.svg = diff_flame_graph_svg(before, after);
  } catch (const error& failure) {
    flame.why_not = fmt::format("reading the last trials' {} captures failed: {}", flame.collector,
                                failure.what());
  }
  return flame;
}

}  // namespace

std::vector<comparison_flame> comparison_flames(const fs::path& results_dir,
                                                const report_model& model) {
  std::vector<comparison_flame> flames;
  if (!model.sweep_matrix) return flames;
  const auto confound = model.sweep_matrix->find("confound");
  if (confound == model.sweep_matrix->end() || !confound->is_object()) return flames;
  const auto summaries = confound->find("summaries");
  if (summaries == confound->end() || !summaries->is_array()) return flames;
  for (const auto& summary : *summaries) {
    if (flames.size() >= flame_pair_limit) break;
    if (!summary.is_object()) continue;
    const std::string cell = summary.value("cell", "");
    const std::string reference = summary.value("reference_cell", "");
    if (cell.empty() || reference.empty()) continue;
    flames.push_back(draw_pair(results_dir, model, cell, reference));
  }
  return flames;
}

}  // namespace aorta::detail
