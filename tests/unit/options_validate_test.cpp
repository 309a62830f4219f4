#include "aorta/collector.hpp"

#include "option_test_support.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <gmock/gmock.h>

#include <algorithm>
#include <gtest/gtest.h>

namespace {

using aorta::collector_request;
using aorta::option_error;
using aorta::validate_collectors;
using aorta::testing_support::request;
using aorta::testing_support::thrown;
using ::testing::HasSubstr;
using ::testing::Not;

std::optional<option_error> refusal(const std::vector<collector_request>& requested) {
  return thrown<option_error>([&] { validate_collectors(requested); });
}

TEST(ValidateCollectors, NamesInWrapOrderThenValidatedOnly) {
  const auto& names = aorta::collector_names();
  const auto at = [&](const std::string& name) {
    return std::find(names.begin(), names.end(), name) - names.begin();
  };
  // The wrap order the original's collectors rely on; a new collector may sit anywhere among them.
  EXPECT_LT(at("rocprof"), at("ncu"));
  EXPECT_LT(at("ncu"), at("callgrind"));
  EXPECT_LT(at("callgrind"), at("proton"));
  // Every attaching collector comes before the validated-only names.
  bool seen_validated_only = false;
  for (const auto& name : names) {
    const bool attaches = aorta::find_collector(name)->attaches();
    EXPECT_FALSE(attaches && seen_validated_only) << name << " comes after a validated-only name";
    seen_validated_only = seen_validated_only || !attaches;
  }
  for (const char* name : {"numerics", "layer_numerics", "amd_log"}) {
    EXPECT_LT(at(name), static_cast<std::ptrdiff_t>(names.size())) << name;
  }
}

TEST(ValidateCollectors, NothingRequestedIsFine) {
  EXPECT_NO_THROW(validate_collectors({}));
}

TEST(ValidateCollectors, UnknownNameListsValidOnesAndSuggests) {
  const auto e = refusal({request("rocprofv3"), request("proton")});
  ASSERT_TRUE(e);
  EXPECT_EQ(e->collector(), "rocprofv3");
  EXPECT_EQ(e->key(), "");
  // The valid names are the registry's, in wrap order, whatever collectors it holds.
  EXPECT_THAT(e->what(), HasSubstr(fmt::format("unknown collector(s) [rocprofv3]; valid: [{}]. Did "
                                               "you mean 'rocprof'?",
                                               fmt::join(aorta::collector_names(), ", "))));
  EXPECT_EQ(aorta::collector_names().front(), "rocprof");
}

TEST(ValidateCollectors, ValidatedOnlyNamesAcceptAnyOptions) {
  EXPECT_NO_THROW(
      validate_collectors({request("numerics", {{"anything", "goes"}}), request("layer_numerics"),
                           request("amd_log", {{"x", ""}})}));
}

TEST(ValidateCollectors, PerCollectorOptionErrorsPropagate) {
  const auto e = refusal({request("rocprof", {{"trace", "bogus"}})});
  ASSERT_TRUE(e);
  EXPECT_EQ(e->collector(), "rocprof");
  EXPECT_EQ(e->key(), "trace");
  const auto p = refusal({request("proton", {{"backend", "x"}})});
  ASSERT_TRUE(p);
  EXPECT_EQ(p->key(), "backend");
}

TEST(ValidateCollectors, RocprofWithQueueInterceptingProtonIsRefusedInEitherOrder) {
  for (const std::string backend : {"", "auto", "rocprofiler", "roctracer"}) {
    const auto proton =
        backend.empty() ? request("proton") : request("proton", {{"backend", backend}});
    for (const auto& requested : {std::vector<collector_request>{request("rocprof"), proton},
                                  std::vector<collector_request>{proton, request("rocprof")}}) {
      const auto e = refusal(requested);
      ASSERT_TRUE(e) << backend;
      const std::string shown = backend.empty() ? "auto" : backend;
      EXPECT_EQ(e->collector(), "proton");
      EXPECT_EQ(e->key(), backend.empty() ? "" : "backend");
      EXPECT_THAT(e->what(), HasSubstr("rocprof and proton with backend: " + shown));
      EXPECT_THAT(e->what(), HasSubstr("HSA queue interceptor"));
      EXPECT_THAT(e->what(), HasSubstr("`proton: {backend: instrumentation}`"));
      EXPECT_THAT(e->what(), HasSubstr("separate tests"));
      const bool says_resolves =
          std::string(e->what()).find("(which resolves to rocprofiler or roctracer on AMD)") !=
          std::string::npos;
      EXPECT_EQ(says_resolves, shown == "auto") << shown;
    }
  }
}

TEST(ValidateCollectors, RocprofWithInstrumentationProtonIsAllowed) {
  EXPECT_NO_THROW(validate_collectors(
      {request("rocprof"), request("proton", {{"backend", "instrumentation"}})}));
  EXPECT_NO_THROW(validate_collectors(
      {request("proton", {{"backend", " Instrumentation "}}), request("rocprof")}));
}

TEST(ValidateCollectors, NcuWithCuptiProtonIsRefusedInEitherOrder) {
  for (const std::string backend : {"", "cupti"}) {
    const auto proton =
        backend.empty() ? request("proton") : request("proton", {{"backend", backend}});
    for (const auto& requested : {std::vector<collector_request>{request("ncu"), proton},
                                  std::vector<collector_request>{proton, request("ncu")}}) {
      const auto e = refusal(requested);
      ASSERT_TRUE(e) << backend;
      EXPECT_EQ(e->collector(), "proton");
      EXPECT_THAT(e->what(), HasSubstr("both attach through CUPTI"));
      EXPECT_THAT(e->what(),
                  HasSubstr("`RuntimeError: Failed to execute cuptiSubscribe with error 39`"));
      EXPECT_THAT(e->what(), HasSubstr("separate tests"));
      EXPECT_THAT(e->what(), HasSubstr("backend: instrumentation"));
    }
  }
  EXPECT_NO_THROW(
      validate_collectors({request("ncu"), request("proton", {{"backend", "instrumentation"}})}));
}

TEST(ValidateCollectors, CallgrindWithAnyGpuCollectorIsRefusedInEitherOrder) {
  for (const std::string gpu : {"rocprof", "ncu", "proton"}) {
    for (const auto& requested :
         {std::vector<collector_request>{request("callgrind"), request(gpu)},
          std::vector<collector_request>{request(gpu), request("callgrind")}}) {
      const auto e = refusal(requested);
      ASSERT_TRUE(e) << gpu;
      EXPECT_EQ(e->collector(), "callgrind");
      EXPECT_THAT(e->what(), HasSubstr("GPU collector(s) [" + gpu + "]"));
      EXPECT_THAT(e->what(), HasSubstr("instruction emulator"));
      EXPECT_THAT(e->what(), HasSubstr("profile CPU and GPU in separate tests"));
    }
  }
  EXPECT_NO_THROW(validate_collectors({request("callgrind"), request("numerics")}));
  EXPECT_NO_THROW(validate_collectors({request("callgrind", {{"cache_sim", "true"}})}));
}

// gbench is no valgrind: its refusal says what was asked, why for Google Benchmark, and what may
// run beside it (the registry's collectors that profile no GPU).
TEST(ValidateCollectors, GbenchWithAGpuCollectorNamesWhatWasAskedAndWhatIsAllowed) {
  for (const auto& requested :
       {std::vector<collector_request>{request("gbench"), request("ncu")},
        std::vector<collector_request>{request("ncu"), request("gbench")}}) {
    const auto e = refusal(requested);
    ASSERT_TRUE(e);
    EXPECT_EQ(e->collector(), "gbench");
    const std::string asked = requested.front().name == "gbench" ? "(collect: [gbench, ncu])"
                                                                 : "(collect: [ncu, gbench])";
    EXPECT_THAT(e->what(),
                HasSubstr("gbench cannot run together with the GPU collector(s) [ncu] " + asked));
    EXPECT_THAT(e->what(), HasSubstr("Google Benchmark times each benchmark inside the payload"));
    EXPECT_THAT(e->what(), HasSubstr("Allowed beside gbench: the collectors that profile no GPU, "
                                     "[callgrind, numerics, layer_numerics, amd_log]"));
    EXPECT_THAT(e->what(), HasSubstr("Fix: profile CPU and GPU in separate tests (one recipe with "
                                     "gbench, one with ncu)"));
    EXPECT_THAT(e->what(), Not(HasSubstr("valgrind")));
  }
  EXPECT_NO_THROW(validate_collectors({request("gbench"), request("numerics")}));
}

TEST(ValidateCollectors, RocprofWithNcuIsRefusedInEitherOrder) {
  for (const auto& requested :
       {std::vector<collector_request>{request("rocprof"), request("ncu")},
        std::vector<collector_request>{request("ncu"), request("rocprof")}}) {
    const auto e = refusal(requested);
    ASSERT_TRUE(e);
    EXPECT_EQ(e->collector(), requested.back().name);
    EXPECT_THAT(e->what(), HasSubstr("rocprof and ncu cannot run together"));
    EXPECT_THAT(e->what(), HasSubstr("always captures nothing"));
  }
}

TEST(ValidateCollectors, SingleCollectorsWithGoodOptionsPass) {
  EXPECT_NO_THROW(validate_collectors({request("rocprof", {{"trace", "kernel,hip"}})}));
  EXPECT_NO_THROW(validate_collectors({request("ncu", {{"clock_control", "base"}})}));
  EXPECT_NO_THROW(
      validate_collectors({request("proton", {{"mode", "env"}, {"backend", "roctracer"}})}));
}

}  // namespace
