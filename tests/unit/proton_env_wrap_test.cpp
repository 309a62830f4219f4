// Proton mode env (the AORTA_PROTON_* bundle) and the AMD device-variable translation.
#include "collectors/proton/proton_wrap.hpp"

#include "unit/wrap_test_support.hpp"

#include <gtest/gtest.h>

namespace aorta {
namespace {

using strings = std::vector<std::string>;

proton_options with_backend(std::string backend) {
  proton_options options;
  options.backend = std::move(backend);
  return options;
}

TEST(proton_env_bundle, defaults_carry_dir_name_context_and_data_only) {
  const env_map expected{{"AORTA_PROTON_DIR", "/t/proton"},
                         {"AORTA_PROTON_NAME", "/t/proton/proton"},
                         {"AORTA_PROTON_CONTEXT", "shadow"},
                         {"AORTA_PROTON_DATA", "tree"}};
  EXPECT_EQ(proton_env_bundle(proton_options{}, "/t/proton"), expected);
}

TEST(proton_env_bundle, pinned_backend_mode_and_hook_are_added) {
  proton_options options;
  options.mode = "env";
  options.backend = "cupti";
  options.backend_mode = "pcsampling";
  options.context = "python";
  options.data = "trace";
  options.hook = "triton";
  const env_map expected{
      {"AORTA_PROTON_DIR", "/t/proton"},  {"AORTA_PROTON_NAME", "/t/proton/proton"},
      {"AORTA_PROTON_CONTEXT", "python"}, {"AORTA_PROTON_DATA", "trace"},
      {"AORTA_PROTON_BACKEND", "cupti"},  {"AORTA_PROTON_MODE", "pcsampling"},
      {"AORTA_PROTON_HOOK", "triton"}};
  EXPECT_EQ(proton_env_bundle(options, "/t/proton"), expected);
}

TEST(proton_env_bundle, a_chosen_format_is_passed_for_finalize) {
  proton_options options;
  options.mode = "env";
  options.format = "hatchet_msgpack";
  EXPECT_EQ(proton_env_bundle(options, "/o").at("AORTA_PROTON_FORMAT"), "hatchet_msgpack");
  EXPECT_FALSE(proton_env_bundle(proton_options{}, "/o").contains("AORTA_PROTON_FORMAT"));
}

TEST(proton_env_bundle, instrumentation_mode_alone_is_the_mode) {
  proton_options options;
  options.backend = "instrumentation";
  options.instrumentation_mode = "pcsampling";
  const env_map bundle = proton_env_bundle(options, "/o");
  EXPECT_EQ(bundle.at("AORTA_PROTON_MODE"), "pcsampling");
  EXPECT_EQ(bundle.at("AORTA_PROTON_BACKEND"), "instrumentation");
}

TEST(proton_env_wrap, any_command_is_accepted_and_left_untouched) {
  proton_options options;
  options.mode = "env";
  const strings argv{"./hip_app", "--n", "3"};
  const launch_plan plan =
      proton_wrap(launch_plan{argv, {}, {}, {}}, options, "/t/proton", env_map{});
  EXPECT_EQ(plan.argv, argv);
  EXPECT_EQ(plan.env_set, proton_env_bundle(options, "/t/proton"));
  EXPECT_TRUE(plan.env_unset.empty());
  EXPECT_TRUE(plan.warnings.empty());
}

TEST(proton_env_wrap, bundle_and_translation_both_reach_the_child) {
  proton_options options;
  options.mode = "env";
  const env_map env{{"HIP_VISIBLE_DEVICES", "3"}, {"KEEP", "yes"}};
  const launch_plan plan = proton_wrap(launch_plan{{"./app"}, {}, {}, {}}, options, "/o", env);
  EXPECT_EQ(plan.env_unset, strings{"HIP_VISIBLE_DEVICES"});
  const env_map expected_child{{"AORTA_PROTON_DIR", "/o"},
                               {"AORTA_PROTON_NAME", "/o/proton"},
                               {"AORTA_PROTON_CONTEXT", "shadow"},
                               {"AORTA_PROTON_DATA", "tree"},
                               {"KEEP", "yes"},
                               {"ROCR_VISIBLE_DEVICES", "3"}};
  EXPECT_EQ(plan.child_environment(env), expected_child);
  ASSERT_EQ(plan.warnings.size(), 1U);
  EXPECT_EQ(plan.warnings.front(),
            "proton: translated HIP_VISIBLE_DEVICES='3' to ROCR_VISIBLE_DEVICES='3' and removed "
            "HIP_VISIBLE_DEVICES from the payload's environment: Proton's auto backend refuses "
            "HIP_VISIBLE_DEVICES and CUDA_VISIBLE_DEVICES on AMD GPUs and reads "
            "ROCR_VISIBLE_DEVICES");
}

TEST(device_translation, hip_becomes_rocr) {
  const auto t = translate_device_variables(proton_options{}, {{"HIP_VISIBLE_DEVICES", "1"}});
  EXPECT_EQ(t.removed, strings{"HIP_VISIBLE_DEVICES"});
  EXPECT_EQ(t.rocr_visible_devices, "1");
  EXPECT_TRUE(t.warning.has_value());
}

TEST(device_translation, cuda_alone_under_auto_is_an_nvidia_pin_and_stays) {
  const auto t = translate_device_variables(proton_options{}, {{"CUDA_VISIBLE_DEVICES", "0"}});
  EXPECT_TRUE(t.empty());
  EXPECT_FALSE(t.rocr_visible_devices.has_value());
  EXPECT_FALSE(t.warning.has_value());
}

TEST(device_translation, hip_wins_over_cuda_and_both_are_removed) {
  const auto t = translate_device_variables(
      proton_options{}, {{"CUDA_VISIBLE_DEVICES", "0"}, {"HIP_VISIBLE_DEVICES", "1"}});
  EXPECT_EQ(t.removed, (strings{"HIP_VISIBLE_DEVICES", "CUDA_VISIBLE_DEVICES"}));
  EXPECT_EQ(t.rocr_visible_devices, "1");
}

TEST(device_translation, existing_rocr_establishes_amd_and_wins) {
  const auto t = translate_device_variables(
      proton_options{}, {{"CUDA_VISIBLE_DEVICES", "0"}, {"ROCR_VISIBLE_DEVICES", "2"}});
  EXPECT_EQ(t.removed, strings{"CUDA_VISIBLE_DEVICES"});
  EXPECT_EQ(t.rocr_visible_devices, "2");
  EXPECT_EQ(t.warning,
            "proton: removed CUDA_VISIBLE_DEVICES from the payload's environment and kept the "
            "existing ROCR_VISIBLE_DEVICES='2', which takes precedence: Proton's auto backend "
            "refuses HIP_VISIBLE_DEVICES and CUDA_VISIBLE_DEVICES on AMD GPUs and reads "
            "ROCR_VISIBLE_DEVICES");
}

TEST(device_translation, pinned_amd_backend_translates_cuda_alone) {
  for (const char* backend : {"rocprofiler", "roctracer"}) {
    const auto t =
        translate_device_variables(with_backend(backend), {{"CUDA_VISIBLE_DEVICES", "3"}});
    EXPECT_EQ(t.removed, strings{"CUDA_VISIBLE_DEVICES"}) << backend;
    EXPECT_EQ(t.rocr_visible_devices, "3") << backend;
  }
}

TEST(device_translation, empty_values_are_translated_and_preserved) {
  const auto hip = translate_device_variables(proton_options{}, {{"HIP_VISIBLE_DEVICES", ""}});
  EXPECT_EQ(hip.removed, strings{"HIP_VISIBLE_DEVICES"});
  EXPECT_EQ(hip.rocr_visible_devices, "");
  const auto rocr = translate_device_variables(
      with_backend("roctracer"), {{"HIP_VISIBLE_DEVICES", "1"}, {"ROCR_VISIBLE_DEVICES", ""}});
  EXPECT_EQ(rocr.removed, strings{"HIP_VISIBLE_DEVICES"});
  EXPECT_EQ(rocr.rocr_visible_devices, "");
}

TEST(device_translation, never_for_instrumentation_or_cupti) {
  const env_map env{{"HIP_VISIBLE_DEVICES", "1"}, {"CUDA_VISIBLE_DEVICES", "0"}};
  EXPECT_TRUE(translate_device_variables(with_backend("instrumentation"), env).empty());
  EXPECT_TRUE(translate_device_variables(with_backend("cupti"), env).empty());
}

TEST(device_translation, rocr_alone_needs_nothing) {
  EXPECT_TRUE(
      translate_device_variables(proton_options{}, {{"ROCR_VISIBLE_DEVICES", "0"}}).empty());
}

TEST(device_translation, cli_mode_applies_it_without_touching_the_callers_env) {
  const test::scratch_dir dir;
  dir.write("bin/python3", "#!/bin/sh\n");
  const env_map env{{"PATH", (dir.path() / "bin").string()}, {"HIP_VISIBLE_DEVICES", "0,1"}};
  const env_map before = env;
  const launch_plan plan = proton_wrap(launch_plan{{"python3", "s.py"}, {}, {}, {}},
                                       with_backend("rocprofiler"), "/o", env);
  EXPECT_EQ(env, before);
  EXPECT_EQ(plan.argv.front(), "python3");
  EXPECT_EQ(plan.env_set, (env_map{{"ROCR_VISIBLE_DEVICES", "0,1"}}));
  EXPECT_EQ(plan.env_unset, strings{"HIP_VISIBLE_DEVICES"});
  EXPECT_EQ(plan.warnings.size(), 1U);
}

}  // namespace
}  // namespace aorta
