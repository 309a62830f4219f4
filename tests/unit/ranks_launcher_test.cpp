// Splitting a launcher's argv into its own part and the per-rank command, and reading the rank.
#include "aorta/error.hpp"
#include "aorta/recipe.hpp"
#include "ranks/launcher.hpp"
#include "ranks/rank_identity.hpp"
#include "ranks/rank_plan.hpp"

#include <gtest/gtest.h>

namespace {

using aorta::detail::split_launcher;
using strings = std::vector<std::string>;

TEST(RankLauncher, TorchrunGetsNoPythonAndTheScriptItsInterpreter) {
  const auto split = split_launcher(
      {"torchrun", "--nproc-per-node", "4", "--nnodes=2", "--standalone", "train.py", "--lr", "1"},
      {});
  ASSERT_TRUE(split);
  EXPECT_EQ(split->launcher_argv,
            (strings{"torchrun", "--nproc-per-node", "4", "--nnodes=2", "--standalone",
                     "--no-python"}));
  EXPECT_EQ(split->rank_command, (strings{"python3", "train.py", "--lr", "1"}));
  EXPECT_EQ(split->ranks, 8);
  EXPECT_EQ(split->rank_variables, strings{"RANK"});
}

TEST(RankLauncher, PythonDashMTorchDistributedRunKeepsItsInterpreter) {
  const auto split = split_launcher({"/opt/venv/bin/python3", "-m", "torch.distributed.run",
                                     "--nproc_per_node", "2", "-m", "pkg.train"},
                                    {});
  ASSERT_TRUE(split);
  EXPECT_EQ(split->launcher_argv, (strings{"/opt/venv/bin/python3", "-m", "torch.distributed.run",
                                           "--nproc_per_node", "2", "--no-python"}));
  EXPECT_EQ(split->rank_command, (strings{"/opt/venv/bin/python3", "-m", "pkg.train"}));
  EXPECT_EQ(split->ranks, 2);
}

TEST(RankLauncher, MpirunSkipsOptionValuesAndTwoValueOptions) {
  const auto split = split_launcher(
      {"mpirun", "-np", "3", "--mca", "btl", "self", "--oversubscribe", "-x", "FOO", "./app", "-n",
       "9"},
      {});
  ASSERT_TRUE(split);
  EXPECT_EQ(split->rank_command, (strings{"./app", "-n", "9"}));
  EXPECT_EQ(split->ranks, 3);
  EXPECT_EQ(split->rank_variables.front(), "OMPI_COMM_WORLD_RANK");
}

TEST(RankLauncher, SrunCountsTasks) {
  const auto split = split_launcher({"srun", "--ntasks=4", "-N", "2", "--exact", "./app"}, {});
  ASSERT_TRUE(split);
  EXPECT_EQ(split->rank_command, strings{"./app"});
  EXPECT_EQ(split->ranks, 4);
  EXPECT_EQ(split->rank_variables, strings{"SLURM_PROCID"});
}

TEST(RankLauncher, NotALauncherIsNotSplit) {
  EXPECT_FALSE(split_launcher({"python3", "train.py"}, {}));
  EXPECT_FALSE(split_launcher({"./srun-like"}, {}));
}

TEST(RankLauncher, ALauncherWithoutACommandIsAUsageError) {
  EXPECT_THROW((void)split_launcher({"mpirun", "-n", "2"}, {}), aorta::usage_error);
  EXPECT_THROW((void)split_launcher({"torchrun", "--nproc-per-node", "2"}, {}), aorta::usage_error);
}

TEST(RankLauncher, RecipeRanksMustAgreeWithTheLauncher) {
  const auto spec = aorta::load_recipe_from_string("schema_version: 1\nranks: 3\n", "r.yaml");
  EXPECT_THROW((void)aorta::detail::detect_rank_launch(spec, {"mpirun", "-n", "2", "./a"}, {}),
               aorta::usage_error);
  EXPECT_THROW((void)aorta::detail::detect_rank_launch(spec, {"./a"}, {}), aorta::usage_error);
  const auto plain = aorta::load_recipe_from_string("schema_version: 1\n", "r.yaml");
  EXPECT_FALSE(aorta::detail::detect_rank_launch(plain, {"./a"}, {}));
}

TEST(RankIdentity, FirstSetVariableWinsInTheDocumentedOrder) {
  const auto identity = aorta::detail::identify_rank(
      {{"SLURM_PROCID", "0"}, {"RANK", "5"}, {"WORLD_SIZE", "8"}},
      aorta::detail::rank_variables());
  EXPECT_EQ(identity.rank, 5);
  EXPECT_EQ(identity.variable, "RANK");
  EXPECT_EQ(identity.world_size, 8);
}

TEST(RankIdentity, NoVariableOrABadValueIsAnError) {
  EXPECT_THROW((void)aorta::detail::identify_rank({}, aorta::detail::rank_variables()),
               aorta::usage_error);
  EXPECT_THROW((void)aorta::detail::identify_rank({{"RANK", "-1"}}, {"RANK"}), aorta::usage_error);
  EXPECT_THROW((void)aorta::detail::identify_rank({{"RANK", "1x"}}, {"RANK"}), aorta::usage_error);
}

}  // namespace
