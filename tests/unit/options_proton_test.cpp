#include "collectors/proton/proton_options.hpp"

#include "option_test_support.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace {

using aorta::option_error;
using aorta::parse_proton_options;
using aorta::proton_options;
using aorta::testing_support::make_options;
using aorta::testing_support::thrown;
using ::testing::HasSubstr;

std::optional<option_error>
proton_error(std::initializer_list<std::pair<std::string, std::string>> pairs) {
  return thrown<option_error>([&] { (void)parse_proton_options(make_options(pairs)); });
}

proton_options parse(std::initializer_list<std::pair<std::string, std::string>> pairs) {
  return parse_proton_options(make_options(pairs));
}

TEST(ProtonOptions, Defaults) {
  const auto parsed = parse({});
  EXPECT_EQ(parsed.mode, "cli");
  EXPECT_EQ(parsed.backend, "auto");
  EXPECT_EQ(parsed.context, "shadow");
  EXPECT_EQ(parsed.data, "tree");
  EXPECT_FALSE(parsed.backend_mode);
  EXPECT_FALSE(parsed.instrumentation_mode);
  EXPECT_FALSE(parsed.granularity);
  EXPECT_FALSE(parsed.hook);
  EXPECT_FALSE(parsed.mode_argument());
}

TEST(ProtonOptions, EachEnumValueIsAccepted) {
  for (const std::string mode : {"cli", "env"}) EXPECT_EQ(parse({{"mode", mode}}).mode, mode);
  for (const std::string backend :
       {"auto", "cupti", "rocprofiler", "roctracer", "instrumentation"}) {
    EXPECT_EQ(parse({{"backend", backend}}).backend, backend);
  }
  for (const std::string context : {"shadow", "python"}) {
    EXPECT_EQ(parse({{"context", context}}).context, context);
  }
  for (const std::string data : {"tree", "trace"}) EXPECT_EQ(parse({{"data", data}}).data, data);
  for (const std::string mode : {"default", "mma", "pcsampling"}) {
    EXPECT_EQ(parse({{"backend", "instrumentation"}, {"instrumentation_mode", mode}})
                  .instrumentation_mode,
              mode);
  }
  for (const std::string g : {"cta", "warp", "warp_2", "warp_4", "warp_8", "warp_group",
                              "warp_group_2", "warp_group_4", "warp_group_8"}) {
    EXPECT_EQ(parse({{"backend", "instrumentation"}, {"granularity", g}}).granularity, g);
  }
  EXPECT_EQ(parse({{"hook", "triton"}}).hook, "triton");
}

TEST(ProtonOptions, ValuesAreTrimmedAndLowerCased) {
  const auto parsed = parse({{"mode", " ENV "},
                             {"backend", "RocTracer"},
                             {"context", "Python"},
                             {"data", " TREE"},
                             {"hook", "Triton "}});
  EXPECT_EQ(parsed.mode, "env");
  EXPECT_EQ(parsed.backend, "roctracer");
  EXPECT_EQ(parsed.context, "python");
  EXPECT_EQ(parsed.data, "tree");
  EXPECT_EQ(parsed.hook, "triton");
}

TEST(ProtonOptions, OutOfDomainValuesNameTheKeyAndTheAllowedValues) {
  const auto backend = proton_error({{"backend", "rocprof"}});
  ASSERT_TRUE(backend);
  EXPECT_EQ(backend->key(), "backend");
  EXPECT_STREQ(backend->what(),
               "proton.backend: 'rocprof' is not a proton backend; allowed: auto, cupti, "
               "rocprofiler, roctracer, instrumentation. Fix: pick one of those (auto lets "
               "Proton choose).");
  const struct {
    std::string key, value, allowed;
  } cases[] = {
      {"mode", "cl1", "allowed: cli, env."},
      {"context", "frames", "allowed: shadow, python."},
      {"data", "hatchet", "allowed: tree, trace."},
      {"instrumentation_mode", "fast", "allowed: default, mma, pcsampling."},
      {"granularity", "block",
       "allowed: cta, warp, warp_2, warp_4, warp_8, warp_group, "
       "warp_group_2, warp_group_4, warp_group_8."},
      {"hook", "torch", "allowed: triton."},
      {"backend_mode", "sampling", "allowed: pcsampling, periodic_flushing."},
      {"format", "msgpack", "allowed: hatchet, hatchet_msgpack, chrome_trace."},
  };
  for (const auto& c : cases) {
    const auto e = proton_error({{c.key, c.value}});
    ASSERT_TRUE(e) << c.key;
    EXPECT_EQ(e->key(), c.key);
    EXPECT_THAT(e->what(), HasSubstr("'" + c.value + "'")) << c.key;
    EXPECT_THAT(e->what(), HasSubstr(c.allowed)) << c.key;
  }
  const auto typo = proton_error({{"backend", "cuptii"}});
  ASSERT_TRUE(typo);
  EXPECT_THAT(typo->what(), HasSubstr("Did you mean 'cupti'?"));
}

TEST(ProtonOptions, UnknownKey) {
  const auto e = proton_error({{"backnd", "auto"}});
  ASSERT_TRUE(e);
  EXPECT_EQ(e->key(), "backnd");
  EXPECT_THAT(e->what(), HasSubstr("proton: unknown option(s) [backnd]; valid: [mode, backend, "
                                   "backend_mode, context, data, instrumentation_mode, "
                                   "granularity, hook, format]. Did you mean 'backend'?"));
}

TEST(ProtonOptions, QueueInterceptingAndAmdBackends) {
  EXPECT_TRUE(parse({}).queue_intercepting());  // auto, the default
  EXPECT_TRUE(parse({{"backend", "rocprofiler"}}).queue_intercepting());
  EXPECT_TRUE(parse({{"backend", "roctracer"}}).queue_intercepting());
  EXPECT_FALSE(parse({{"backend", "cupti"}}).queue_intercepting());
  EXPECT_FALSE(parse({{"backend", "instrumentation"}}).queue_intercepting());
  EXPECT_FALSE(parse({}).amd_backend());
  EXPECT_TRUE(parse({{"backend", "rocprofiler"}}).amd_backend());
  EXPECT_TRUE(parse({{"backend", "roctracer"}}).amd_backend());
  EXPECT_FALSE(parse({{"backend", "cupti"}}).amd_backend());
  EXPECT_FALSE(parse({{"backend", "instrumentation"}}).amd_backend());
}

TEST(ProtonOptions, ModeArgumentRenderings) {
  EXPECT_EQ(
      parse({{"backend", "instrumentation"}, {"instrumentation_mode", "mma"}}).mode_argument(),
      "mma");
  EXPECT_EQ(parse({{"backend", "instrumentation"}, {"granularity", "warp"}}).mode_argument(),
            "default:granularity=warp");
  EXPECT_EQ(
      parse(
          {{"backend", "instrumentation"}, {"instrumentation_mode", "MMA"}, {"granularity", "cta"}})
          .mode_argument(),
      "mma:granularity=cta");
  EXPECT_EQ(parse({{"backend", "rocprofiler"}, {"backend_mode", "pcsampling"}}).mode_argument(),
            "pcsampling");
  EXPECT_EQ(
      parse({{"backend", "roctracer"}, {"backend_mode", "periodic_flushing"}}).mode_argument(),
      "periodic_flushing");
}

TEST(ProtonOptions, BackendModeWithIntraKernelKnobIsRefusedBeforeTheBackendGate) {
  // cupti would also fail the instrumentation-backend gate; the single --mode is the real cause.
  const auto e = proton_error(
      {{"backend", "cupti"}, {"backend_mode", "pcsampling"}, {"instrumentation_mode", "mma"}});
  ASSERT_TRUE(e);
  EXPECT_EQ(e->key(), "backend_mode");
  EXPECT_THAT(e->what(), HasSubstr("cannot be combined with instrumentation_mode"));
  EXPECT_THAT(e->what(), HasSubstr("single --mode"));
  const auto g = proton_error(
      {{"backend", "instrumentation"}, {"backend_mode", "pcsampling"}, {"granularity", "warp"}});
  ASSERT_TRUE(g);
  EXPECT_EQ(g->key(), "backend_mode");
  EXPECT_THAT(g->what(), HasSubstr("cannot be combined with granularity"));
}

TEST(ProtonOptions, IntraKernelKnobsRequireTheInstrumentationBackend) {
  const auto mode = proton_error({{"instrumentation_mode", "mma"}});
  ASSERT_TRUE(mode);
  EXPECT_EQ(mode->key(), "instrumentation_mode");
  EXPECT_THAT(mode->what(), HasSubstr("require backend: instrumentation"));
  EXPECT_THAT(mode->what(), HasSubstr("got backend: auto"));
  const auto granularity = proton_error({{"backend", "cupti"}, {"granularity", "warp"}});
  ASSERT_TRUE(granularity);
  EXPECT_EQ(granularity->key(), "granularity");
  EXPECT_THAT(granularity->what(), HasSubstr("got backend: cupti"));
}

TEST(ProtonOptions, BackendModeNeedsAnExplicitWholeKernelBackend) {
  for (const std::string backend : {"auto", "instrumentation"}) {
    const auto e = proton_error({{"backend", backend}, {"backend_mode", "pcsampling"}});
    ASSERT_TRUE(e);
    EXPECT_EQ(e->key(), "backend_mode");
    EXPECT_THAT(e->what(), HasSubstr("requires an explicit backend from [cupti, rocprofiler, "
                                     "roctracer], got backend: " +
                                     backend));
    EXPECT_THAT(e->what(), HasSubstr("which needs mode: env for rocprofiler / roctracer"));
  }
}

TEST(ProtonOptions, BackendModeMustSuitTheBackend) {
  const auto e = proton_error({{"backend", "roctracer"}, {"backend_mode", "pcsampling"}});
  ASSERT_TRUE(e);
  EXPECT_EQ(e->key(), "backend_mode");
  EXPECT_THAT(e->what(), HasSubstr("allowed for roctracer: periodic_flushing."));
  EXPECT_EQ(parse({{"backend", "cupti"}, {"backend_mode", "pcsampling"}}).backend_mode,
            "pcsampling");
  EXPECT_EQ(parse({{"backend", "cupti"}, {"backend_mode", "periodic_flushing"}}).backend_mode,
            "periodic_flushing");
  EXPECT_EQ(parse({{"backend", "rocprofiler"}, {"backend_mode", "periodic_flushing"}}).backend_mode,
            "periodic_flushing");
}

// format: (issue 12) Proton's output format, which only mode: env can choose.
TEST(ProtonOptions, FormatIsOptionalAndEachDataKindTakesItsOwn) {
  EXPECT_FALSE(parse({}).format);
  EXPECT_EQ(parse({{"format", "hatchet"}}).format, "hatchet");
  EXPECT_EQ(parse({{"format", " Hatchet_MsgPack"}, {"mode", "env"}}).format, "hatchet_msgpack");
  EXPECT_EQ(parse({{"format", "chrome_trace"}, {"data", "trace"}}).format, "chrome_trace");
  const auto tree_trace = proton_error({{"format", "chrome_trace"}, {"mode", "env"}});
  ASSERT_TRUE(tree_trace);
  EXPECT_EQ(tree_trace->key(), "format");
  EXPECT_THAT(tree_trace->what(),
              HasSubstr("proton.format: 'chrome_trace' is not written for data: tree; Proton's "
                        "tree writes hatchet or hatchet_msgpack."));
  const auto trace_msgpack =
      proton_error({{"format", "hatchet_msgpack"}, {"data", "trace"}, {"mode", "env"}});
  ASSERT_TRUE(trace_msgpack);
  EXPECT_THAT(trace_msgpack->what(),
              HasSubstr("'hatchet_msgpack' is not written for data: trace; Proton's trace writes "
                        "chrome_trace only."));
  const auto typo = proton_error({{"format", "hatchet_msgpak"}});
  ASSERT_TRUE(typo);
  EXPECT_THAT(typo->what(), HasSubstr("Did you mean 'hatchet_msgpack'?"));
}

TEST(ProtonOptions, HatchetMsgpackUnderModeCliIsRefusedWithTheFix) {
  const auto e = proton_error({{"format", "hatchet_msgpack"}});
  ASSERT_TRUE(e);
  EXPECT_EQ(e->key(), "format");
  EXPECT_THAT(e->what(), HasSubstr("proton.format: 'hatchet_msgpack' cannot be chosen under mode: "
                                   "cli: Proton's command line (python -m "
                                   "triton.profiler.proton, Triton 3.5.1 to 3.9.0) has no "
                                   "output-format flag"));
  EXPECT_THAT(e->what(), HasSubstr("Fix: set mode: env"));
  EXPECT_THAT(e->what(), HasSubstr("3.6.0 answers \"Unknown output format: hatchet_msgpack\""));
}

}  // namespace
