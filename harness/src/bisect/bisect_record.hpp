// What a bisect knows, and `DIR/bisect.json` that keeps it (docs/bisect.md, "Output"): the
// settings it ran with, the candidate commits, every build and every step. Written after each
// build and step, so an interrupted bisect resumes from it and never builds or measures a commit
// twice.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace aorta::detail {

// What a bisect was asked; a resumed one must be asked the same.
struct bisect_settings {
  std::string repository;  // the work tree's top level
  std::string good;        // full commit ids
  std::string bad;
  std::string recipe;
  std::string build;  // run as `sh -c BUILD` in each commit's worktree
  std::vector<std::string> command;
  std::vector<std::string> quantities;  // --quantity: only these rows are watched
  std::string gate;                     // --gate: the quantity kinds watched ("" = all)
  std::optional<double> threshold;
  int rounds = 0;  // of a step's first look
  int max_rounds = 0;
  std::uint64_t seed = 0;
};

struct built_commit {
  std::string commit;
  bool succeeded = false;
  double seconds = 0.0;
  std::string log;  // relative to DIR
};

// One confound row of a step that bisect looked at.
struct watched_row {
  std::string quantity;
  std::optional<double> base_median;  // the good commit's
  std::optional<double> head_median;  // the step's commit's
  std::optional<double> ratio;
  std::string evidence;
  std::string verdict;  // the confound verdict: SAME, SLOWER, FASTER, AMBIGUOUS, UNKNOWN
};

// BAD: the step's commit shows the regression; GOOD: it does not; AMBIGUOUS: still not separated
// at the round budget; UNBUILDABLE: its build failed; UNKNOWN: nothing measured a watched row.
struct bisect_step {
  int number = 0;  // 0: the ends (good against bad)
  std::string commit;
  std::string base;  // what it ran against: good, or the culprit's parent when confirming
  std::string subject;
  std::string verdict;
  std::optional<double> ratio;  // the watched row that decided it
  std::string evidence;
  int rounds = 0;        // of the last look, the one judged
  int total_rounds = 0;  // of every look
  int looks = 0;
  double seconds = 0.0;   // measuring, builds excluded
  std::string directory;  // the last look's cells run, relative to DIR
  std::vector<watched_row> rows;
  // The cells run's summary sentence of head against base (matrix.json's confound.summaries):
  // where the change is, its share and whether it is more work. Empty when the run wrote none.
  std::string summary;
};

struct bisect_record {
  bisect_settings settings;
  std::vector<std::string> candidates;  // after good up to bad, oldest first
  std::vector<std::string> tracked;     // the quantities the ends showed SLOWER
  std::vector<built_commit> built;
  std::vector<bisect_step> steps;
  // in progress, culprit, not reproduced, not separated, not confirmed, interrupted
  std::string status = "in progress";
  std::string message;
  std::optional<std::string> culprit;
  std::string culprit_subject;
  std::vector<watched_row> culprit_rows;  // what moved at the culprit, against good
  std::string culprit_summary;            // that step's summary sentence
  std::vector<std::string> unseparated;   // the commits one of which is the culprit
};

[[nodiscard]] const bisect_step* find_step(const bisect_record& record, const std::string& commit,
                                           const std::string& base);
[[nodiscard]] const built_commit* find_build(const bisect_record& record,
                                             const std::string& commit);

void write_bisect_record(const std::filesystem::path& file, const bisect_record& record);
// Throws setup_error naming the file and the fix when it is not a bisect.json this aorta reads.
[[nodiscard]] bisect_record read_bisect_record(const std::filesystem::path& file);

}  // namespace aorta::detail
