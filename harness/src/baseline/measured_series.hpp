// What a baseline (or a fresh run, for comparison) knows about one test: its fingerprint, where it
// came from, and per trial every numeric metric and every kernel's launches and time. Check
// quantities are computed from these per-trial snapshots, so a baseline recorded today can judge a
// check written tomorrow.
#pragma once

#include "aorta/check.hpp"
#include "aorta/trial_record.hpp"

#include <nlohmann/json.hpp>

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace aorta::detail {

struct kernel_sample {
  std::optional<double> launches;  // nullopt: the profiler gave no trustworthy count
  double time_ms = 0.0;
};

// The sample's value of a quantity read from the kernel table (time_ms, count); nullopt for any
// other quantity and for an unknown launch count.
[[nodiscard]] std::optional<double> kernel_sample_value(const kernel_sample& sample,
                                                        check_quantity quantity);

struct trial_snapshot {
  // Numeric metrics of result.json, scope cycles (`proton_scope_cycles.<s>`) and callgrind Ir
  // (`callgrind_ir.<f>`) included.
  std::map<std::string, double> metrics;
  std::map<std::string, kernel_sample> kernels;  // by name, rows of the same name summed
};

// Where one rank ran in one trial: its host and card (empty when nothing told).
struct rank_place {
  std::string host;
  std::string card;
};

// One rank's own series of a multi-rank test: `trials` and `places` are index-aligned with the
// test's trials; a trial the rank is missing from holds an empty snapshot.
struct measured_rank {
  std::vector<trial_snapshot> trials;
  std::vector<rank_place> places;
};

struct measured_test {
  std::string test;
  std::map<std::string, std::string> fingerprint;
  nlohmann::json provenance = nlohmann::json::object();
  std::vector<trial_snapshot> trials;
  std::map<int, measured_rank> ranks;  // by rank; empty for a single-process test
  // Every measured trial's recipe said `ranks_serialized: true`: ranks sharing a card took it in
  // turn, so timed straggler rows over them stand (baseline/shared_card.hpp).
  bool ranks_serialized = false;
};

// Rank `rank` of `test` as a test of its own (its fingerprint, its trials), for the same judge.
[[nodiscard]] measured_test rank_as_test(const measured_test& test, int rank);

// The keys of result.json's `versions` that name the machine and its tools (everything but aorta's
// own version), which must match between a baseline and a run for the comparison to mean anything.
[[nodiscard]] std::map<std::string, std::string>
fingerprint_of(const std::map<std::string, std::string>& versions);

// Trials that measured something (verdict pass or fail); skipped and errored ones are left out.
[[nodiscard]] measured_test measured_from_records(const std::string& test,
                                                  const std::vector<trial_record>& records);

// True when the default gate judges something of this test statistically (a kernel's time, a
// scope's cycles), which needs min_timed_samples trials a side; counts and Ir need one.
[[nodiscard]] bool has_timed_quantities(const measured_test& test);

// The check's left-hand side on one trial (a ratio per trial), or nullopt with `why` set.
[[nodiscard]] std::optional<double> measure(const check_expression& expression,
                                            const trial_snapshot& trial, std::string& why);

// Each trial's value of the check's left-hand side; trials where it is unknown are left out and
// the last reason is kept in `why`.
[[nodiscard]] std::vector<double> measure_all(const check_expression& expression,
                                              const measured_test& test, std::string& why);

}  // namespace aorta::detail
