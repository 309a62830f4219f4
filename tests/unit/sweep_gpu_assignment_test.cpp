// CTest resource allocation → the device variables the payload sees. The CTEST_RESOURCE_GROUP_*
// values are written the way CTest writes them ("id:<id>,slots:<n>" entries joined by ';').
#include "aorta/error.hpp"
#include "sweep/gpu_assignment.hpp"

#include <gtest/gtest.h>

#include <string>

namespace aorta::detail {
namespace {

TEST(CtestAllocatedGpus, NothingAllocatedWithoutAResourceGroupCount) {
  EXPECT_EQ(ctest_allocated_gpus({}), std::nullopt);
  EXPECT_EQ(ctest_allocated_gpus({{"CTEST_RESOURCE_GROUP_0_GPUS", "id:1,slots:1"}}), std::nullopt);
}

TEST(CtestAllocatedGpus, OneGroupOneGpu) {
  const env_map env{{"CTEST_RESOURCE_GROUP_COUNT", "1"},
                    {"CTEST_RESOURCE_GROUP_0", "gpus"},
                    {"CTEST_RESOURCE_GROUP_0_GPUS", "id:3,slots:1"}};
  EXPECT_EQ(ctest_allocated_gpus(env), "3");
}

TEST(CtestAllocatedGpus, SeveralGroupsAndEntriesJoinInOrder) {
  const env_map env{{"CTEST_RESOURCE_GROUP_COUNT", "2"},
                    {"CTEST_RESOURCE_GROUP_0_GPUS", "id:0,slots:1"},
                    {"CTEST_RESOURCE_GROUP_1_GPUS", "id:2,slots:1;id:5,slots:2"}};
  EXPECT_EQ(ctest_allocated_gpus(env), "0,2,5");
}

// A group that asked for another resource type has no _GPUS variable; groups past the count are
// not read.
TEST(CtestAllocatedGpus, GroupsWithoutGpusAndGroupsPastTheCountAreIgnored) {
  const env_map env{{"CTEST_RESOURCE_GROUP_COUNT", "2"},
                    {"CTEST_RESOURCE_GROUP_0_CPUS", "id:0,slots:4"},
                    {"CTEST_RESOURCE_GROUP_1_GPUS", "id:7,slots:1"},
                    {"CTEST_RESOURCE_GROUP_2_GPUS", "id:9,slots:1"}};
  EXPECT_EQ(ctest_allocated_gpus(env), "7");
}

TEST(CtestAllocatedGpus, NoGpuInAnyGroupIsNothingAllocated) {
  const env_map env{{"CTEST_RESOURCE_GROUP_COUNT", "1"},
                    {"CTEST_RESOURCE_GROUP_0_CPUS", "id:0,slots:1"}};
  EXPECT_EQ(ctest_allocated_gpus(env), std::nullopt);
}

TEST(CtestAllocatedGpus, EntryWithoutIdIsASetupErrorNamingTheVariable) {
  const env_map env{{"CTEST_RESOURCE_GROUP_COUNT", "1"},
                    {"CTEST_RESOURCE_GROUP_0_GPUS", "slots:1"}};
  try {
    static_cast<void>(ctest_allocated_gpus(env));
    FAIL() << "expected setup_error";
  } catch (const setup_error& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find("CTEST_RESOURCE_GROUP_0_GPUS='slots:1'"), std::string::npos) << message;
    EXPECT_NE(message.find("id:<n>,slots:<k>"), std::string::npos) << message;
  }
}

TEST(CtestAllocatedGpus, SecondEntryWithoutIdIsASetupError) {
  const env_map env{{"CTEST_RESOURCE_GROUP_COUNT", "1"},
                    {"CTEST_RESOURCE_GROUP_0_GPUS", "id:0,slots:1;slots:1"}};
  EXPECT_THROW(static_cast<void>(ctest_allocated_gpus(env)), setup_error);
}

// An empty id would silently drop a GPU from the list (or pin nothing at all).
TEST(CtestAllocatedGpus, EmptyIdIsASetupError) {
  const env_map env{{"CTEST_RESOURCE_GROUP_COUNT", "1"},
                    {"CTEST_RESOURCE_GROUP_0_GPUS", "id:,slots:1"}};
  EXPECT_THROW(static_cast<void>(ctest_allocated_gpus(env)), setup_error);
}

// A count that is not a number must not read as "nothing allocated": the payload would then see
// every GPU and collide with the other tests CTest spread over them.
TEST(CtestAllocatedGpus, MalformedGroupCountIsASetupError) {
  for (const char* count : {"two", "", "-1", "2x"}) {
    const env_map env{{"CTEST_RESOURCE_GROUP_COUNT", count},
                      {"CTEST_RESOURCE_GROUP_0_GPUS", "id:0,slots:1"}};
    EXPECT_THROW(static_cast<void>(ctest_allocated_gpus(env)), setup_error)
        << "count '" << count << "'";
  }
}

const env_map two_gpus{{"CTEST_RESOURCE_GROUP_COUNT", "1"},
                       {"CTEST_RESOURCE_GROUP_0_GPUS", "id:1,slots:1;id:4,slots:1"}};

TEST(GpuVisibility, NvidiaMachinePinsCudaOnly) {
  // ROCR_VISIBLE_DEVICES here would make the proton collector treat the machine as AMD and drop
  // the CUDA pin.
  const env_map expected{{"CUDA_VISIBLE_DEVICES", "1,4"}};
  EXPECT_EQ(gpu_visibility(two_gpus, {.nvidia = true, .amd = false}), expected);
}

TEST(GpuVisibility, AmdMachinePinsRocrOnlyNeverHip) {
  const env_map expected{{"ROCR_VISIBLE_DEVICES", "1,4"}};
  EXPECT_EQ(gpu_visibility(two_gpus, {.nvidia = false, .amd = true}), expected);
}

TEST(GpuVisibility, BothOrNeitherDriverPinsBoth) {
  const env_map expected{{"CUDA_VISIBLE_DEVICES", "1,4"}, {"ROCR_VISIBLE_DEVICES", "1,4"}};
  EXPECT_EQ(gpu_visibility(two_gpus, {.nvidia = true, .amd = true}), expected);
  EXPECT_EQ(gpu_visibility(two_gpus, {.nvidia = false, .amd = false}), expected);
}

TEST(GpuVisibility, EmptyWhenNothingWasAllocated) {
  EXPECT_TRUE(gpu_visibility({}).empty());
  EXPECT_TRUE(gpu_visibility({{"CUDA_VISIBLE_DEVICES", "0"}}).empty());
}

}  // namespace
}  // namespace aorta::detail
