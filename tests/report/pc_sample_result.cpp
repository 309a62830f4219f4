// Writes OUT/<test>/trial_0/result.json for a PC-sampling hatchet, as a sweep's trial would record
// it (metrics from compute_metrics, the checks given evaluated), so report.html can be rendered
// from a real capture without the GPU it was taken on.
// usage: aorta_pc_sample_result HATCHET OUT TEST [CHECK...]
#include "aorta/check.hpp"
#include "aorta/metrics.hpp"
#include "aorta/trial_record.hpp"
#include "captures/hatchet_reader.hpp"

#include <filesystem>
#include <iostream>

int main(int argc, char** argv) {
  if (argc < 4) {
    std::cerr << "usage: aorta_pc_sample_result HATCHET OUT TEST [CHECK...]\n";
    return 64;
  }
  try {
    const aorta::capture source = aorta::read_hatchet_capture(argv[1]);
    aorta::trial_record record;
    record.trial_index = 0;
    record.collectors = {"proton"};
    record.command = {"python3", "matmul.py"};
    record.started_at = "2026-12-06T00:00:00Z";
    record.metrics = aorta::compute_metrics(source);
    bool passed = true;
    for (int i = 4; i < argc; ++i) {
      record.checks.push_back(
          aorta::evaluate_check(aorta::check_expression::parse(argv[i]), {source}, record.metrics));
      passed = passed && record.checks.back().passed;
    }
    record.verdict = passed ? aorta::verdict::pass : aorta::verdict::fail;
    record.reason = passed ? "all checks passed" : "a check failed";
    const std::filesystem::path test = std::filesystem::path(argv[2]) / argv[3];
    std::filesystem::remove_all(test);  // a trial of an earlier run would be a second trial
    const std::filesystem::path dir = test / "trial_0";
    std::filesystem::create_directories(dir);
    aorta::write_result_json(dir / "result.json", record);
  } catch (const std::exception& error) {
    std::cerr << "aorta_pc_sample_result: " << error.what() << '\n';
    return 70;
  }
  return 0;
}
