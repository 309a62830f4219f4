#include "sweep/refused_run.hpp"

#include "aorta/error.hpp"
#include "aorta/trial_record.hpp"
#include "record/trial_dir.hpp"
#include "record/verdict_rules.hpp"
#include "sweep/output_lock.hpp"
#include "utc_timestamp.hpp"

#include <fmt/format.h>

#include <filesystem>

namespace aorta::detail {

void record_refused_run(const sweep_request& request, const std::string& refusal,
                        reporting::reporter& report) {
  trial_record record;
  record.aorta_version = AORTA_VERSION;
  record.recipe_path = request.recipe_path.string();
  record.command = request.command;
  record.started_at = utc_timestamp();
  record.working_directory = std::filesystem::current_path().string();
  decide_verdict(record, verdict::error, "refused (exit 64): " + refusal);
  const std::filesystem::path file = request.output_dir / "result.json";
  try {
    // Not into a directory another run holds: its results would gain one more.
    const output_lock lock(request.output_dir);
    write_trial_result(request.output_dir, record);
  } catch (const error& failure) {
    report.report(reporting::note_event{
        reporting::severity::note,
        fmt::format("the refusal is not recorded in {}: {}", file.string(), failure.what()),
        reporting::channel::diagnostic});
  }
}

void forget_refused_run(const sweep_request& request) {
  std::error_code ignored;
  std::filesystem::remove(request.output_dir / "result.json", ignored);
}

}  // namespace aorta::detail
