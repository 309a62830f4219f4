// Baseline files: round trip, and every kind of corruption an error naming the file and the fix.
#include "aorta/error.hpp"
#include "baseline/baseline_file.hpp"

#include <gtest/gtest.h>

#include <string>

namespace {

using namespace aorta::detail;
using json = nlohmann::json;

measured_test sample_test() {
  measured_test test;
  test.test = "vecadd";
  test.fingerprint = {{"gpu", "NVIDIA H200, 580.159.04"}, {"triton", "3.6.0"}};
  for (int i = 0; i < 3; ++i) {
    trial_snapshot trial;
    trial.metrics["proton_gpu_time_ms"] = 1.0 + 0.1 * i;
    trial.metrics["proton_scope_cycles.load"] = 100.0 + i;
    trial.metrics["callgrind_ir.main"] = 5000;
    trial.kernels["add_kernel"] = kernel_sample{20.0, 0.5 + 0.01 * i};
    test.trials.push_back(trial);
  }
  return test;
}

std::string error_of(const json& file_json, const std::string& expected = "vecadd") {
  try {
    (void)baseline_from_json(file_json, "base/vecadd.json", expected);
  } catch (const aorta::error& e) {
    return e.what();
  }
  return "(accepted)";
}

TEST(BaselineFile, RoundTripKeepsEverySample) {
  const auto json_form = baseline_to_json(sample_test());
  EXPECT_EQ(json_form["schema_version"], 1);
  EXPECT_EQ(json_form["kernels"]["add_kernel"]["time_ms"]["n"], 3);
  EXPECT_DOUBLE_EQ(json_form["kernels"]["add_kernel"]["time_ms"]["median"].get<double>(), 0.51);
  EXPECT_TRUE(json_form["scopes"].contains("load"));
  EXPECT_TRUE(json_form["functions"].contains("main"));
  const auto back = baseline_from_json(json_form, "base/vecadd.json", "vecadd");
  ASSERT_EQ(back.trials.size(), 3U);
  EXPECT_DOUBLE_EQ(back.trials[2].kernels.at("add_kernel").time_ms, 0.52);
  EXPECT_DOUBLE_EQ(*back.trials[1].kernels.at("add_kernel").launches, 20.0);
  EXPECT_DOUBLE_EQ(back.trials[1].metrics.at("proton_scope_cycles.load"), 101.0);
  EXPECT_DOUBLE_EQ(back.trials[0].metrics.at("callgrind_ir.main"), 5000.0);
  EXPECT_EQ(back.fingerprint, sample_test().fingerprint);
}

TEST(BaselineFile, CorruptionIsAnErrorWithTheFix) {
  const auto good = baseline_to_json(sample_test());
  auto negative = good;
  negative["kernels"]["add_kernel"]["time_ms"]["samples"][0] = -1.0;
  EXPECT_NE(error_of(negative).find("not a finite non-negative number"), std::string::npos);
  EXPECT_NE(error_of(negative).find("aorta baseline record"), std::string::npos);

  auto empty = good;
  empty["kernels"]["add_kernel"]["time_ms"]["samples"] = json::array({nullptr, nullptr, nullptr});
  EXPECT_NE(error_of(empty).find("n = 0"), std::string::npos);

  auto zero_trials = good;
  zero_trials["trials"] = 0;
  EXPECT_NE(error_of(zero_trials).find("not a positive count"), std::string::npos);

  auto newer = good;
  newer["schema_version"] = 2;
  EXPECT_NE(error_of(newer).find("schema_version 2"), std::string::npos);

  EXPECT_NE(error_of(good, "softmax").find("baseline of test 'vecadd', not of 'softmax'"),
            std::string::npos);

  auto edited = good;
  edited["kernels"]["add_kernel"]["time_ms"]["samples"][0] = 9.0;  // summary left as it was
  EXPECT_NE(error_of(edited).find("does not match its samples"), std::string::npos);

  EXPECT_NE(error_of(json::array()).find("not an aorta baseline"), std::string::npos);
}

}  // namespace
