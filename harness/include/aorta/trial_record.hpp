// The record of one trial, written as <trial dir>/result.json: what ran (argv as wrapped, env
// changes), how it ended, the metrics, the checks and the verdict. Versioned by schema_version.
#pragma once

#include "aorta/check.hpp"
#include "aorta/metrics.hpp"
#include "aorta/schema.hpp"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace aorta {

using check_outcome = check_result;

enum class verdict { pass, fail, skip, error };

// "pass", "fail", "skip", "error".
[[nodiscard]] std::string_view to_string(verdict value) noexcept;
// nullopt for any other text.
[[nodiscard]] std::optional<verdict> parse_verdict(std::string_view text) noexcept;

// The result.json schema version this build writes and fully understands (schemas::result).
inline constexpr int trial_record_schema_version = schemas::result.version;

// One rank's summary in a multi-rank trial, per attaching collector: the per-rank table of reports.
struct rank_row {
  int rank = 0;
  std::string host;
  std::string collector;
  std::optional<std::uint64_t> launches;  // summed over its kernels; nullopt if one is unknown
  double time_ms = 0.0;                   // summed kernel time
  std::uint64_t ir = 0;                   // the top function's inclusive Ir (callgrind)
  std::string top;                        // its hottest kernel or function
  bool empty = true;
  // The card the rank ran on (nvidia-smi's UUID, or the index a launcher gave) and how aorta
  // knows it (rank_card.hpp); both empty when nothing tells.
  std::string card;
  std::string card_source;
  // The rank's own series for the per-rank gate (docs/regression-gate.md, "Ranks"): its numeric
  // metrics (callgrind_ir.<f>, scope cycles, ...) and its kernels by name as {launches, time_ms}.
  std::map<std::string, double> metrics;
  std::map<std::string, std::pair<std::optional<std::uint64_t>, double>> kernels;
};

// Where a trial sits in a recipe's cells (docs/recipes.md, "Cells"): its cell, the round of the
// interleaved schedule (also the trial's index within its cell) and its place within that round.
struct cell_coordinates {
  std::string name;
  int round = 0;
  int position = 0;
  std::vector<std::string> mitigations;  // stacked names; {"none"} for no change
  std::string diagnostic;                // "none" or a diagnostics: name
};

struct trial_record {
  int schema_version = trial_record_schema_version;
  std::string aorta_version;
  std::string recipe_path;
  std::string ticket;
  int trial_index = 0;
  std::vector<std::string> command;  // the user's command
  std::vector<std::string> argv;     // as run, wrapped by the collectors
  std::map<std::string, std::string> env_set;
  std::vector<std::string> env_unset;
  std::string working_directory;
  std::optional<int> exit_status;
  std::optional<int> signal;
  bool timed_out = false;
  // The signal (SIGINT, SIGTERM, SIGHUP) that interrupted aorta during this trial; the run
  // stopped after it.
  std::optional<int> interrupted_by;
  // The collectors' output was complete and valid, but the payload did not exit within
  // capture_exit_grace: aorta ended it (reason says how); checks were still evaluated.
  bool hung_after_capture = false;
  // "pid 4242: sleep 300" for each descendant that escaped the process group and was killed.
  std::vector<std::string> escaped_processes;
  double wall_seconds = 0.0;
  std::vector<std::string> collectors;
  metric_set metrics;
  std::vector<check_result> checks;
  aorta::verdict verdict = aorta::verdict::error;
  std::string reason;                           // why the verdict, in one line
  std::map<std::string, std::string> versions;  // profiler, Triton, driver, GPU, ...
  std::string started_at;                       // ISO 8601, UTC
  std::vector<std::string> notes;
  std::vector<rank_row> ranks;  // empty for a single-process payload
  // The recipe's `ranks_serialized: true`: ranks sharing a card took it in turn while they measured
  // (baseline/shared_card.hpp). Written to result.json only when true.
  bool ranks_serialized = false;
  std::optional<cell_coordinates> cell;  // absent outside a recipe with cells
  // The regression gate judges all of a test's trials together and writes its verdict on the last
  // one: true when that trial passed its own checks and the gate made it fail or skip, so a report
  // counts the trial as passed and the test as the gate decided.
  bool verdict_from_gate = false;
};

// Layout: "schema" (schemas::result.name), then the fields above by name; metrics as a flat object `metrics` (ints, doubles, strings,
// string lists), the per-kernel table as `kernels` [{name, launches|null, total_ms, collector}],
// metric notes as `metric_notes`; exit_status and signal null when absent; `cell` {name, round,
// position, mitigations, diagnostic} only for a trial of a recipe with cells; `verdict_from_gate`
// only when true.
[[nodiscard]] nlohmann::json to_json(const trial_record& record);

// Reads what to_json wrote. Missing keys keep their defaults; a newer schema_version adds a note
// and reads what it knows. Throws aorta::error (exit 1) naming the key for a wrong type or a
// "schema" that names another format.
[[nodiscard]] trial_record trial_record_from_json(const nlohmann::json& json);

// Writes `path` atomically (a temporary file in the same directory, then rename), so a reader or
// an interrupted run never sees half a result.json. Throws setup_error naming the path.
void write_result_json(const std::filesystem::path& path, const trial_record& record);

}  // namespace aorta
