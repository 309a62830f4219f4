// Ranks that share a card (issue 44): a card's identity across hosts, the timed straggler check and
// gate item refusing ranks that ran on one card at once unless the recipe says they took it in
// turn, the per-rank rows saying so, and `ranks_serialized` through the recipe, result.json and a
// baseline. Hand-made ranks with known answers; tests/cli/rank_gate.cmake runs the same through a
// real mpirun.
#include "aorta/capture.hpp"
#include "aorta/check.hpp"
#include "aorta/error.hpp"
#include "aorta/recipe.hpp"
#include "aorta/trial_record.hpp"
#include "baseline/baseline_file.hpp"
#include "baseline/default_gate.hpp"
#include "baseline/gate_judge.hpp"
#include "baseline/straggler_gate.hpp"
#include "ranks/rank_checks.hpp"
#include "baseline/shared_card.hpp"

#include <gtest/gtest.h>

namespace {

using namespace aorta::detail;

bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// `places[r]` = {host, card} of rank r in every trial; rank `slow` takes 10% longer.
measured_test placed(const std::vector<std::pair<std::string, std::string>>& places, int slow,
                     int trials = 4) {
  measured_test test;
  test.test = "t";
  test.trials.resize(static_cast<std::size_t>(trials));
  for (std::size_t r = 0; r < places.size(); ++r) {
    auto& series = test.ranks[static_cast<int>(r)];
    for (int t = 0; t < trials; ++t) {
      trial_snapshot snapshot;
      // A wobble per rank and trial, as a card's clock gives, so a timed row has a variance.
      const double wobble = 1.0 + 0.001 * static_cast<double>((t + static_cast<int>(r)) % 3);
      snapshot.kernels["k"] =
          kernel_sample{10.0, 2.0 * wobble * (static_cast<int>(r) == slow ? 1.10 : 1.0)};
      snapshot.metrics["callgrind_ir.work"] = static_cast<int>(r) == slow ? 1100.0 : 1000.0;
      snapshot.metrics["callgrind_total_ir"] = 2000.0;
      series.trials.push_back(snapshot);
      series.places.push_back({places[r].first, places[r].second});
    }
  }
  return test;
}

const gate_row* row_named(const std::vector<gate_row>& rows, const std::string& label) {
  for (const auto& row : rows) {
    if (row.label == label) return &row;
  }
  return nullptr;
}

TEST(SharedCard, AUuidIsOneCardAnywhereAnIndexOnlyOnItsHost) {
  EXPECT_EQ(card_identity_of("node1", "GPU-5d3c1a2b"), "GPU-5d3c1a2b");
  EXPECT_EQ(card_identity_of("node1", "MIG-7f00"), "MIG-7f00");
  EXPECT_EQ(card_identity_of("node1", "GPU index 0"), "node1: GPU index 0");
  EXPECT_EQ(card_identity_of("", "GPU index 0"), "GPU index 0");
  EXPECT_EQ(card_identity_of("node1", ""), "");
  // Two hosts with "GPU index 0" each: no card is shared. One UUID on two ranks: shared, wherever
  // the host names came from. A rank with no known card shares nothing.
  const auto shared = shared_cards({{0, "node0", "GPU index 0"},
                                    {1, "node1", "GPU index 0"},
                                    {3, "node0", "GPU-a"},
                                    {2, "node0", "GPU-a"},
                                    {4, "node0", ""},
                                    {5, "node0", ""}});
  ASSERT_EQ(shared.size(), 1U);
  EXPECT_EQ(shared[0].card, "GPU-a");
  EXPECT_EQ(shared[0].ranks, (std::vector<int>{2, 3}));
  EXPECT_EQ(describe_shared_cards(shared), "ranks 2, 3 shared GPU-a");
  EXPECT_TRUE(shared_cards({{0, "n", "MIG-1"}, {1, "n", "MIG-2"}}).empty());
}

// The check form: 4 ranks, rank 3 at +10%, all on one card.
std::vector<aorta::rank_captures> ranks_on(const std::vector<std::string>& cards) {
  std::vector<aorta::rank_captures> ranks;
  for (std::size_t r = 0; r < cards.size(); ++r) {
    aorta::capture got;
    got.collector = "gbench";
    got.rank = static_cast<int>(r);
    got.kernels.push_back({"k", 10, (r == 3 ? 1.1 : 1.0) * 1e6});
    const std::uint64_t ir = r == 3 ? 1100U : 1000U;
    got.functions.push_back({"work", ir, ir, 1});
    ranks.push_back(
        {static_cast<int>(r), "node0", "RANK", {got}, cards[r], "CUDA_VISIBLE_DEVICES"});
  }
  return ranks;
}

TEST(SharedCard, TheTimedStragglerCheckRefusesRanksSharingACardUnlessSerialized) {
  const auto check = aorta::check_expression::parse("straggler(time_ms(k)) <= 1.05");
  const auto one_card = ranks_on({"GPU-a", "GPU-a", "GPU-a", "GPU-a"});
  const auto refused = aorta::evaluate_rank_check(check, one_card);
  EXPECT_FALSE(refused.passed);
  EXPECT_FALSE(refused.value.has_value());
  EXPECT_TRUE(has(refused.message, "ranks 0, 1, 2, 3 shared GPU-a in this trial, running at once"))
      << refused.message;
  EXPECT_TRUE(has(refused.message, "ranks_serialized: true")) << refused.message;
  // Declared serialized: judged, rank 3 named. One card per rank: judged without the key.
  const auto serialized = aorta::evaluate_rank_check(check, one_card, true);
  ASSERT_TRUE(serialized.value.has_value());
  EXPECT_NEAR(*serialized.value, 1.1, 1e-12);
  EXPECT_FALSE(serialized.passed);
  const auto own_cards =
      aorta::evaluate_rank_check(check, ranks_on({"GPU-a", "GPU-b", "GPU-c", "GPU-d"}));
  ASSERT_TRUE(own_cards.value.has_value());
  EXPECT_NEAR(*own_cards.value, 1.1, 1e-12);
  // Ir is the rank's own whatever shares its card; max_over_ranks is no rank-against-peers.
  const auto ir = aorta::evaluate_rank_check(
      aorta::check_expression::parse("straggler(ir(work)) <= 1.05"), one_card);
  ASSERT_TRUE(ir.value.has_value());
  EXPECT_NEAR(*ir.value, 1.1, 1e-12);
  EXPECT_TRUE(aorta::evaluate_rank_check(
                  aorta::check_expression::parse("max_over_ranks(time_ms(k)) <= 2"), one_card)
                  .passed);
}

TEST(SharedCard, TheStragglerGateItemRefusesTimedRowsOfRanksSharingACard) {
  const std::vector<std::pair<std::string, std::string>> one_card(4, {"node0", "GPU-a"});
  const auto fresh = placed(one_card, 3);
  const auto rows = straggler_rows(fresh, nullptr, 0.05);
  const gate_row* timed = row_named(rows, "rank 3 (node0, GPU-a): straggler(time_ms(k))");
  ASSERT_NE(timed, nullptr);
  EXPECT_TRUE(has(timed->why_unknown, "ranks 0, 1, 2, 3 shared GPU-a in trial 0 (and 3 more of "
                                      "the run's 4 trials), running at once"))
      << timed->why_unknown;
  // The Ir row is exact and the rank's own: judged.
  const gate_row* ir = row_named(rows, "rank 3 (node0, GPU-a): straggler(ir(work))");
  ASSERT_NE(ir, nullptr);
  EXPECT_TRUE(ir->why_unknown.empty()) << ir->why_unknown;

  gate_policy policy;
  policy.gate = parse_gate_spec("straggler +5%");
  const auto refused = judge_gate(placed(one_card, -1), fresh, policy);
  EXPECT_TRUE(refused.failed);  // unknown rows fail a gated run: nothing measured is no pass
  EXPECT_GT(refused.unknown, 0);
  // Declared serialized: the same numbers are judged, and rank 3's row fails as a straggler.
  auto serialized = fresh;
  serialized.ranks_serialized = true;
  const auto judged = judge_gate(placed(one_card, -1), serialized, policy);
  const gate_row* rank3 = row_named(judged.rows, "rank 3 (node0, GPU-a): straggler(time_ms(k))");
  ASSERT_NE(rank3, nullptr);
  EXPECT_EQ(rank3->verdict, gate_verdict::worse);
  EXPECT_EQ(judged.unknown, 0);
}

TEST(SharedCard, EightRanksOnTwoHostsByIndexShareNoCardAndAreJudged) {
  // Two hosts of four GPUs each, every rank's card an index (no UUID known): "GPU index 1" on
  // node0 and on node1 are two cards, so nothing is shared and rank 5 is a straggler of its own.
  std::vector<std::pair<std::string, std::string>> places;
  for (int r = 0; r < 8; ++r) {
    places.push_back({r < 4 ? "node0" : "node1", "GPU index " + std::to_string(r % 4)});
  }
  const auto rows = straggler_rows(placed(places, 5), nullptr, 0.05);
  const gate_row* rank5 = row_named(rows, "rank 5 (node1, GPU index 1): straggler(time_ms(k))");
  ASSERT_NE(rank5, nullptr);
  EXPECT_TRUE(rank5->why_unknown.empty()) << rank5->why_unknown;
  ASSERT_EQ(rank5->fresh.size(), 4U);
  EXPECT_NEAR(rank5->fresh[0], 1.10, 0.01);
  // Its card had no other rank: the reading names the card with its host.
  EXPECT_TRUE(
      has(rank5->attribution, "work or card: rank(s) 5 were slow only on node1: GPU index 1"))
      << rank5->attribution;
}

TEST(SharedCard, ARanksOwnRowsSayItSharedItsCard) {
  const std::vector<std::pair<std::string, std::string>> two_cards{
      {"node0", "GPU-a"}, {"node0", "GPU-a"}, {"node0", "GPU-b"}};
  gate_policy policy;
  policy.gate = parse_gate_spec("time +5%");
  const auto judged = judge_gate(placed(two_cards, -1), placed(two_cards, 1), policy);
  const gate_row* rank1 = row_named(judged.rows, "rank 1 (node0, GPU-a): time_ms(k)");
  ASSERT_NE(rank1, nullptr);
  EXPECT_EQ(rank1->attribution,
            "shared GPU-a with rank(s) 0 at once in trial 0, not serialized: its times hold "
            "their time slices too");
  const gate_row* rank2 = row_named(judged.rows, "rank 2 (node0, GPU-b): time_ms(k)");
  ASSERT_NE(rank2, nullptr);
  EXPECT_EQ(rank2->attribution, "");
}

TEST(SharedCard, RanksSerializedTravelsThroughRecipeResultAndBaseline) {
  const auto spec = aorta::load_recipe_from_string(
      "schema_version: 1\nranks: 4\nranks_serialized: true\n", "r.yaml");
  EXPECT_TRUE(spec.ranks_serialized);
  EXPECT_FALSE(aorta::load_recipe_from_string("schema_version: 1\n", "r.yaml").ranks_serialized);
  EXPECT_THROW((void)aorta::load_recipe_from_string("schema_version: 1\nranks_serialized: maybe\n",
                                                    "r.yaml"),
               aorta::recipe_error);

  aorta::trial_record record;
  record.verdict = aorta::verdict::pass;
  EXPECT_FALSE(aorta::to_json(record).contains("ranks_serialized"));  // absent unless true
  record.ranks_serialized = true;
  const auto json = aorta::to_json(record);
  EXPECT_TRUE(aorta::trial_record_from_json(json).ranks_serialized);
  auto hostile = json;
  hostile["ranks_serialized"] = "yes";
  EXPECT_THROW((void)aorta::trial_record_from_json(hostile), aorta::error);

  // Every measured trial must say so for the test to be serialized.
  auto unsaid = record;
  unsaid.ranks_serialized = false;
  EXPECT_TRUE(measured_from_records("t", {record, record}).ranks_serialized);
  EXPECT_FALSE(measured_from_records("t", {record, unsaid}).ranks_serialized);

  auto test = placed({{"n", "GPU-a"}, {"n", "GPU-a"}}, -1, 2);
  test.ranks_serialized = true;
  EXPECT_TRUE(baseline_from_json(baseline_to_json(test), "t.json", "t").ranks_serialized);
  auto bad = baseline_to_json(test);
  bad["ranks_serialized"] = 1;
  try {
    (void)baseline_from_json(bad, "t.json", "t");
    ADD_FAILURE() << "a number for ranks_serialized was accepted";
  } catch (const aorta::error& e) {
    EXPECT_TRUE(has(e.what(), "'ranks_serialized' is number, not true or false")) << e.what();
  }
}

}  // namespace
