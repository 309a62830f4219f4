#include "sweep/gate_baseline.hpp"

#include "baseline/baseline_file.hpp"
#include "baseline/card_identity.hpp"
#include "json_document.hpp"
#include "record/gate_verdict.hpp"

#include <fmt/format.h>

#include <filesystem>

namespace aorta::detail {
namespace fs = std::filesystem;
namespace {

std::string record_command(const sweep_request& request) {
  const fs::path output = fs::absolute(request.output_dir).lexically_normal();
  const std::string test = gate_test_name(request);
  return fmt::format("aorta baseline record {} --into {}{}", output.string(),
                     fs::absolute(*request.baseline_dir).lexically_normal().string(),
                     test == output.filename().string() ? "" : " --test-name " + test);
}

// The trials passed but the test is skipped or failed on the gate's account: gate.json says so
// (with nothing judged, it holds only the test, the verdict and why), so a report agrees with
// CTest about the test. The trials' result.json files are left as they were written.
void record_gate_verdict(const sweep_request& request, std::vector<trial_record>& trials,
                         verdict outcome, const std::string& reason) {
  if (trials.empty() || trials.back().verdict != verdict::pass) return;
  const gate_test_verdict said{
      trials.back().trial_index, trials.back().started_at, outcome, reason, {}, {}};
  nlohmann::json record = {{"test", gate_test_name(request)},
                           {"verdict", to_string(outcome)},
                           {"reason", reason},
                           {"test_verdict", to_json(said)}};
  write_json_document(request.output_dir / "gate.json", std::move(record), schemas::gate);
  lay_over(trials.back(), said);
}

gate_baseline from_history(const sweep_request& request, const std::string& test,
                           const measured_test& fresh) {
  const auto& source = *request.history_baseline;
  const auto card = fresh.fingerprint.find(std::string(card_key));
  auto history = baseline_from_history(
      {source.store, source.branch, test,
       card == fresh.fingerprint.end() ? std::string() : card->second, source.max_commits});
  gate_baseline baseline{history.measured, history.describe(),
                         fmt::format("add this machine's results of branch {} to the store "
                                     "(`aorta history add`), or give a baseline directory",
                                     source.branch),
                         std::move(history)};
  return baseline;
}

}  // namespace

std::string gate_test_name(const sweep_request& request) {
  if (!request.test_name.empty()) return request.test_name;
  return fs::absolute(request.output_dir).lexically_normal().filename().string();
}

exit_code skip_or_fail(const sweep_request& request, std::vector<trial_record>& trials,
                       const std::string& reason, reporting::reporter& out) {
  if (request.require_baseline) {
    const std::string failure = "baseline required (--require-baseline): " + reason;
    out.report(reporting::gate_event{"FAILED: " + failure});
    record_gate_verdict(request, trials, verdict::fail, failure);
    return exit_code::failed;
  }
  out.report(reporting::gate_event{"SKIPPED: " + reason});
  record_gate_verdict(request, trials, verdict::skip, reason);
  return exit_code::skipped;
}

std::optional<gate_baseline> load_gate_baseline(const sweep_request& request,
                                                const std::string& test,
                                                std::vector<trial_record>& trials, exit_code& code,
                                                reporting::reporter& out) {
  if (request.history_baseline) {
    try {
      return from_history(request, test, measured_from_records(test, trials));
    } catch (const error& e) {
      // Not a skip even without --require-baseline: the user asked for history's baseline, and
      // a store without it is a setup to fix, never a pass.
      out.report(reporting::gate_event{fmt::format("FAILED: {}", e.what())});
      record_gate_verdict(request, trials, verdict::fail, e.what());
      code = e.code() == exit_code::usage ? exit_code::usage : exit_code::failed;
      return std::nullopt;
    }
  }
  if (!request.baseline_dir) {
    code = skip_or_fail(request, trials,
                        fmt::format("test '{}' has baseline checks but no baseline directory: give "
                                    "--baseline DIR or --baseline history[:BRANCH] (CMake: "
                                    "BASELINE <dir> or AORTA_DEFAULT_BASELINE)",
                                    test),
                        out);
    return std::nullopt;
  }
  const fs::path file = baseline_path(*request.baseline_dir, test);
  auto base = load_baseline(file, test);
  if (!base) {
    code = skip_or_fail(request, trials,
                        fmt::format("no baseline for test '{}' ({} does not exist). Record one "
                                    "from this run's results:\n  {}",
                                    test, file.string(), record_command(request)),
                        out);
    return std::nullopt;
  }
  return gate_baseline{std::move(*base), file.string(),
                       "Record a baseline here with:\n  " + record_command(request), std::nullopt};
}

}  // namespace aorta::detail
