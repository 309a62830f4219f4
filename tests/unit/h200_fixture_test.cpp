// The readers on the real captures of an NVIDIA H200 (tests/fixtures/h200/README.md says how each
// was taken). Every expected number was read off the fixture files themselves: the hatchet leaves'
// "count" and "time (ns)", the scopes' "cycles", the device table, and the ncu CSV rows.
#include "captures/hatchet_reader.hpp"
#include "captures/ncu_reader.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <map>
#include <string>

namespace aorta {
namespace {

namespace fs = std::filesystem;

const fs::path h200 = fs::path(AORTA_FIXTURES_DIR) / "h200";

const kernel_stat* find_kernel(const capture& got, const std::string& name) {
  const auto it = std::find_if(got.kernels.begin(), got.kernels.end(),
                               [&](const kernel_stat& k) { return k.name == name; });
  return it == got.kernels.end() ? nullptr : &*it;
}

std::uint64_t total_launches(const capture& got) {
  std::uint64_t sum = 0;
  for (const auto& k : got.kernels) sum += k.launches.value_or(0);
  return sum;
}

double total_ns(const capture& got) {
  double sum = 0;
  for (const auto& k : got.kernels) sum += k.total_ns;
  return sum;
}

// The device table every H200 hatchet carries: {"CUDA": {"0": {"arch": "90", ...}}}.
void expect_h200_device(const capture& got) {
  ASSERT_EQ(got.devices.size(), 1U);
  const device_info& gpu = got.devices.front();
  EXPECT_EQ(gpu.type, "CUDA");
  EXPECT_EQ(gpu.id, "0");
  EXPECT_EQ(gpu.properties.at("arch"), "90");
  EXPECT_EQ(gpu.properties.at("num_sms"), "132");
  EXPECT_EQ(gpu.properties.at("clock_rate"), "1980000");
  EXPECT_EQ(gpu.properties.at("memory_clock_rate"), "3201000");
  EXPECT_EQ(gpu.properties.at("bus_width"), "6016");
}

TEST(H200Hatchet, VecaddCuptiCountsTwentyAddKernelLaunches) {
  const capture got = read_hatchet_capture(h200 / "vecadd_cupti");
  EXPECT_EQ(got.collector, "proton");
  EXPECT_EQ(got.backend, "cupti");
  EXPECT_FALSE(got.empty());
  ASSERT_EQ(got.files.size(), 1U);
  EXPECT_EQ(got.files.front().filename(), "proton.hatchet");
  EXPECT_TRUE(got.scopes.empty());

  // add_kernel + 4 torch kernels (uniform ×2, add ×2, abs ×1, max-reduce ×1).
  ASSERT_EQ(got.kernels.size(), 5U);
  const kernel_stat* add = find_kernel(got, "add_kernel");
  ASSERT_NE(add, nullptr);
  EXPECT_EQ(add->launches, std::uint64_t{20});
  EXPECT_DOUBLE_EQ(add->total_ns, 46914.0);
  // Sorted by time: add_kernel (46914 ns) is the hottest, the abs kernel (2112 ns) the coolest.
  EXPECT_EQ(got.kernels.front().name, "add_kernel");
  EXPECT_EQ(got.kernels.back().name,
            "_ZN2at6native29vectorized_elementwise_kernelILi4ENS0_10AbsFunctorIfEESt5arrayIPcLm2EEE"
            "EviT0_T1_");
  EXPECT_EQ(got.kernels.back().launches, std::uint64_t{1});
  EXPECT_EQ(total_launches(got), 26U);       // 1 + 1 + 2 + 2 + 20
  EXPECT_DOUBLE_EQ(total_ns(got), 68385.0);  // 5472 + 2112 + 4928 + 8959 + 46914
  expect_h200_device(got);
}

TEST(H200Hatchet, FileAndDirectoryReadTheSame) {
  const capture dir = read_hatchet_capture(h200 / "vecadd_cupti");
  const capture file = read_hatchet_capture(h200 / "vecadd_cupti" / "proton.hatchet");
  ASSERT_EQ(dir.kernels.size(), file.kernels.size());
  for (std::size_t i = 0; i < dir.kernels.size(); ++i) {
    EXPECT_EQ(dir.kernels[i].name, file.kernels[i].name);
    EXPECT_EQ(dir.kernels[i].launches, file.kernels[i].launches);
    EXPECT_DOUBLE_EQ(dir.kernels[i].total_ns, file.kernels[i].total_ns);
  }
  EXPECT_EQ(dir.artifact_dir, file.artifact_dir);
}

TEST(H200Hatchet, PipelineCuptiHasThreeKernelsTwentyTimesEach) {
  const capture got = read_hatchet_capture(h200 / "pipeline_cupti");
  EXPECT_EQ(got.backend, "cupti");
  ASSERT_EQ(got.kernels.size(), 3U);
  // By total time: scale 177599, bias_gelu 166974, row_sum 77602 ns.
  EXPECT_EQ(got.kernels[0].name, "scale_kernel");
  EXPECT_DOUBLE_EQ(got.kernels[0].total_ns, 177599.0);
  EXPECT_EQ(got.kernels[1].name, "bias_gelu_kernel");
  EXPECT_DOUBLE_EQ(got.kernels[1].total_ns, 166974.0);
  EXPECT_EQ(got.kernels[2].name, "row_sum_kernel");
  EXPECT_DOUBLE_EQ(got.kernels[2].total_ns, 77602.0);
  for (const auto& k : got.kernels) EXPECT_EQ(k.launches, std::uint64_t{20}) << k.name;
  EXPECT_EQ(total_launches(got), 60U);
  expect_h200_device(got);
}

TEST(H200Hatchet, HotspotInstrumentationHasTwoScopesAndNoKernelTime) {
  const capture got = read_hatchet_capture(h200 / "hotspot_instrumentation");
  EXPECT_EQ(got.backend, "instrumentation");
  EXPECT_FALSE(got.empty());
  // The leaves carry cycles only: no time, no count, so no kernel rows.
  EXPECT_TRUE(got.kernels.empty());
  ASSERT_EQ(got.scopes.size(), 2U);
  EXPECT_EQ(got.scopes[0].kernel, "unbalanced_kernel");
  EXPECT_EQ(got.scopes[0].scope, "cheap");
  EXPECT_DOUBLE_EQ(got.scopes[0].cycles, 574696.0);
  EXPECT_DOUBLE_EQ(got.scopes[0].normalized_cycles, 2244.90625);
  EXPECT_EQ(got.scopes[1].kernel, "unbalanced_kernel");
  EXPECT_EQ(got.scopes[1].scope, "expensive");
  EXPECT_DOUBLE_EQ(got.scopes[1].cycles, 4234617.0);
  EXPECT_DOUBLE_EQ(got.scopes[1].normalized_cycles, 16541.47265625);
  expect_h200_device(got);
}

TEST(H200Hatchet, RequestedBackendWinsOverWhatTheTreeShows) {
  hatchet_read_options pinned;
  pinned.requested_backend = "cupti";
  EXPECT_EQ(read_hatchet_capture(h200 / "pipeline_cupti", pinned).backend, "cupti");
  hatchet_read_options automatic;
  automatic.requested_backend = "auto";
  EXPECT_EQ(read_hatchet_capture(h200 / "hotspot_instrumentation", automatic).backend,
            "instrumentation");
}

TEST(H200Hatchet, PythonContextSumsAddKernelOverCallPaths) {
  const capture got = read_hatchet_capture(h200 / "vecadd_python_context");
  EXPECT_EQ(got.backend, "cupti");
  const kernel_stat* add = find_kernel(got, "add_kernel");
  ASSERT_NE(add, nullptr);
  EXPECT_EQ(add->launches, std::uint64_t{4});
  EXPECT_DOUBLE_EQ(add->total_ns, 10016.0);
  EXPECT_EQ(got.kernels.size(), 5U);
  EXPECT_EQ(total_launches(got), 10U);  // 2 + 4 + 1 + 1 + 2
}

TEST(H200Hatchet, InstrumentationUnderNcuStillHasItsScopes) {
  const capture got = read_hatchet_capture(h200 / "ncu_plus_instrumentation");
  EXPECT_EQ(got.backend, "instrumentation");
  ASSERT_EQ(got.scopes.size(), 2U);
  EXPECT_EQ(got.scopes[0].scope, "cheap");
  EXPECT_DOUBLE_EQ(got.scopes[0].cycles, 582482.0);
  EXPECT_EQ(got.scopes[1].scope, "expensive");
  EXPECT_DOUBLE_EQ(got.scopes[1].cycles, 2080077.0);
}

std::map<std::string, std::uint64_t> launches_by_kernel(const capture& got) {
  std::map<std::string, std::uint64_t> launches;
  for (const auto& k : got.kernels) launches[k.name] = k.launches.value_or(0);
  return launches;
}

TEST(H200Ncu, DetailsPageCountsThreeAddKernelLaunches) {
  const capture got = read_ncu_capture(h200 / "ncu_vecadd");
  EXPECT_EQ(got.collector, "ncu");
  ASSERT_EQ(got.kernels.size(), 5U);
  // Triton's kernel keeps its plain name in ncu's "Kernel Name" column.
  const kernel_stat* add = find_kernel(got, "add_kernel");
  ASSERT_NE(add, nullptr);
  EXPECT_EQ(add->launches, std::uint64_t{3});
  EXPECT_DOUBLE_EQ(add->total_ns, 15136.0);  // "5,024" + "5,088" + "5,024" ns
  const kernel_stat* abs = find_kernel(
      got, "void at::vectorized_elementwise_kernel<4, at::AbsFunctor<float>, std::array<char *, "
           "2>>(int, T2, T3)");
  ASSERT_NE(abs, nullptr);
  EXPECT_EQ(abs->launches, std::uint64_t{1});
  EXPECT_DOUBLE_EQ(abs->total_ns, 3968.0);
  EXPECT_EQ(total_launches(got), 9U);  // IDs 0..8
  EXPECT_DOUBLE_EQ(total_ns(got), 47904.0);
  EXPECT_EQ(got.kernels.front().name, "add_kernel");
}

TEST(H200Ncu, RawPageCountsThreeAddKernelLaunches) {
  const capture got = read_ncu_capture(h200 / "ncu_vecadd_raw" / "ncu.csv");
  ASSERT_EQ(got.kernels.size(), 5U);
  const kernel_stat* add = find_kernel(got, "add_kernel");
  ASSERT_NE(add, nullptr);
  EXPECT_EQ(add->launches, std::uint64_t{3});
  EXPECT_DOUBLE_EQ(add->total_ns, 15424.0);
  EXPECT_EQ(total_launches(got), 9U);
}

TEST(H200Ncu, DetailsAndRawPagesAgreeOnLaunchesPerKernel) {
  const auto details = launches_by_kernel(read_ncu_capture(h200 / "ncu_vecadd"));
  const auto raw = launches_by_kernel(read_ncu_capture(h200 / "ncu_vecadd_raw"));
  EXPECT_EQ(details, raw);
  EXPECT_EQ(details.size(), 5U);
}

TEST(H200Ncu, NcuAroundInstrumentationSeesTheTritonKernelTwice) {
  const capture got = read_ncu_capture(h200 / "ncu_plus_instrumentation");
  const kernel_stat* kernel = find_kernel(got, "unbalanced_kernel");
  ASSERT_NE(kernel, nullptr);
  EXPECT_EQ(kernel->launches, std::uint64_t{2});
  EXPECT_DOUBLE_EQ(kernel->total_ns, 11424.0);  // "6,464" + "4,960" ns
  EXPECT_EQ(total_launches(got), 15U);          // 8 erf + 2 unbalanced + 5 others
}

// ncu around Proton's cupti backend: the application failed and ncu wrote no table at all.
TEST(H200Ncu, FailedApplicationGivesAnEmptyCapture) {
  const capture got = read_ncu_capture(h200 / "ncu_plus_proton");
  EXPECT_TRUE(got.empty());
  EXPECT_FALSE(got.notes.empty());
}

}  // namespace
}  // namespace aorta
