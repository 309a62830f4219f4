// The name and version of every JSON file (and JSON stream) aorta writes, in one place: each
// writer stamps its document from here and each reader that checks a version compares against the
// same constant. docs/output-files.md lists the files, and tests/golden/ pins their keys and types.
#pragma once

#include <string_view>

namespace aorta {

// Written at the top level of the document as `"schema": name, "schema_version": version`.
// The version goes up when a key is renamed or removed or changes type; a new key does not change
// it (readers ignore keys they do not know), so older readers keep reading newer files.
struct output_schema {
  std::string_view name;
  int version = 1;
};

namespace schemas {

// <output>/trial_<n>/result.json: the trial record (aorta/trial_record.hpp).
inline constexpr output_schema result{"aorta-result", 1};
// <output>/trial_<n>/command.json: the command as given, as wrapped, env changes, wrap warnings.
inline constexpr output_schema command{"aorta-command", 1};
// <dir>/matrix.json from `aorta report`: per cell counts, metric summaries, top kernels; and
// <output>/matrix.json of a sweep with cells. Version 2: a cell's environment, command and
// arguments moved from cells[] to change_sets[], written once per mitigation_axis entry.
inline constexpr output_schema matrix{"aorta-matrix", 2};
// `aorta check --json` on stdout is a trial record, `result` (one evaluation path): it has no
// schema of its own.
// <baselines>/<test>.json from `aorta baseline record`: per-trial samples the gate compares with.
inline constexpr output_schema baseline{"aorta-baseline", 1};
// `aorta compare --json` on stdout: one row per compared quantity.
inline constexpr output_schema compare{"aorta-compare", 1};
// <output>/gate.json: the regression gate's verdict and rows for one sweep run.
inline constexpr output_schema gate{"aorta-gate", 1};
// <output>/trial_<n>/rank_<r>/rank.json: which process claimed rank r (written by rank-exec).
inline constexpr output_schema rank{"aorta-rank", 1};
// `aorta history changes --json` on stdout: the change points of every series in a store.
inline constexpr output_schema history_changes{"aorta-history-changes", 1};
// <output>/bisect.json from `aorta bisect`: settings, candidates, builds, steps and the culprit.
inline constexpr output_schema bisect{"aorta-bisect", 1};
// The file of `--events-jsonl FILE`: one object a line, each one event of the run.
inline constexpr output_schema events{"aorta-events", 1};

}  // namespace schemas
}  // namespace aorta
