// The per-rank gate, the straggler gate item, its work/card reading, a baseline's `ranks` and
// which card a rank ran on: hand-made series with known answers.
#include "aorta/error.hpp"
#include "baseline/baseline_file.hpp"
#include "baseline/gate_judge.hpp"
#include "baseline/default_gate.hpp"
#include "baseline/rank_gate.hpp"
#include "baseline/straggler_gate.hpp"
#include "ranks/rank_card.hpp"
#include "record/rank_rows_json.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <unistd.h>

namespace {

using namespace aorta::detail;

// `ranks` ranks, `trials` trials; every rank's kernel k takes `ms`, rank `slow` takes ms * factor.
measured_test ranked(int ranks, int trials, double ms, int slow = -1, double factor = 1.0,
                     const std::vector<std::string>& cards = {}) {
  measured_test test;
  test.test = "t";
  test.trials.resize(static_cast<std::size_t>(trials));
  for (int r = 0; r < ranks; ++r) {
    auto& series = test.ranks[r];
    for (int t = 0; t < trials; ++t) {
      // A small trial-to-trial wobble shared by every rank, as a card's clock would give.
      const double wobble = 1.0 + 0.002 * (t % 3);
      trial_snapshot snapshot;
      snapshot.kernels["k"] = kernel_sample{10.0, ms * wobble * (r == slow ? factor : 1.0)};
      series.trials.push_back(snapshot);
      series.places.push_back(
          {"node0", cards.empty() ? "" : cards[static_cast<std::size_t>(r) % cards.size()]});
    }
  }
  for (int t = 0; t < trials; ++t) {
    double sum = 0;
    for (const auto& [r, series] : test.ranks)
      sum += series.trials[static_cast<std::size_t>(t)].kernels.at("k").time_ms;
    test.trials[static_cast<std::size_t>(t)].kernels["k"] = kernel_sample{10.0 * ranks, sum};
  }
  return test;
}

gate_judgement judged(const measured_test& base, const measured_test& fresh, const char* gate) {
  gate_policy policy;
  policy.gate = parse_gate_spec(gate);
  return judge_gate(base, fresh, policy);
}

const gate_row* row_named(const gate_judgement& judgement, const std::string& label) {
  for (const auto& row : judgement.rows) {
    if (row.label == label) return &row;
  }
  return nullptr;
}

TEST(RankGate, OneRankOfFourTenPercentSlowerFailsOnItsOwnRowWhileTheSumIsInside) {
  const auto base = ranked(4, 5, 2.0);
  const auto fresh = ranked(4, 5, 2.0, 2, 1.10);
  const auto result = judged(base, fresh, "time +5%");
  EXPECT_TRUE(result.failed);
  const gate_row* sum = row_named(result, "time_ms(k)");
  ASSERT_NE(sum, nullptr);
  EXPECT_EQ(sum->verdict, gate_verdict::same);  // +2.5%
  const gate_row* rank2 = row_named(result, "rank 2 (node0): time_ms(k)");
  ASSERT_NE(rank2, nullptr);
  EXPECT_EQ(rank2->verdict, gate_verdict::worse);
  for (const int other : {0, 1, 3}) {
    const gate_row* row =
        row_named(result, "rank " + std::to_string(other) + " (node0): time_ms(k)");
    ASSERT_NE(row, nullptr);
    EXPECT_EQ(row->verdict, gate_verdict::same);
  }
  EXPECT_FALSE(judged(base, ranked(4, 5, 2.0), "time +5%").failed);
}

TEST(RankGate, HolmCountsEveryRanksRowsInOneFamily) {
  const auto result = judged(ranked(8, 5, 2.0), ranked(8, 5, 2.0, 5, 1.10), "time +5%");
  const gate_row* rank5 = row_named(result, "rank 5 (node0): time_ms(k)");
  ASSERT_NE(rank5, nullptr);
  ASSERT_TRUE(rank5->p_value && rank5->adjusted_p);
  // 9 timed rows (the sum and 8 ranks): the smallest p is multiplied by 9.
  EXPECT_NEAR(*rank5->adjusted_p, std::min(1.0, 9 * *rank5->p_value), 1e-12);
}

TEST(RankGate, ARankMissingFromTheRunIsUnknownAndFails) {
  auto fresh = ranked(4, 5, 2.0);
  fresh.ranks.erase(3);
  const auto result = judged(ranked(4, 5, 2.0), fresh, "time +5%");
  const gate_row* missing = row_named(result, "rank 3 (node0)");
  ASSERT_NE(missing, nullptr);
  EXPECT_EQ(missing->verdict, gate_verdict::unknown);
  EXPECT_NE(missing->why_unknown.find("measured nothing on it"), std::string::npos);
  EXPECT_TRUE(result.failed);
}

TEST(RankGate, ABaselineWithoutRanksJudgesTheSumAlone) {
  auto base = ranked(4, 5, 2.0);
  base.ranks.clear();
  const auto result = judged(base, ranked(4, 5, 2.0, 2, 1.10), "time +5%");
  EXPECT_FALSE(result.failed);
  ASSERT_EQ(result.rows.size(), 1U);  // the sum's time row
  EXPECT_EQ(result.rows[0].label, "time_ms(k)");
}

TEST(RankGate, TheLabelShortensAUuidToItsFirstEightDigits) {
  const auto test = ranked(2, 1, 1.0, -1, 1.0, {"GPU-5d3c1a2b-0000-1111-2222-333344445555"});
  EXPECT_EQ(rank_label(1, test, test), "rank 1 (node0, GPU-5d3c1a2b)");
  EXPECT_EQ(rank_label(7, test, test), "rank 7");
}

TEST(StragglerGate, OneRankTenPercentSlowerThanItsPeersFailsWithoutABaseline) {
  const auto fresh = ranked(8, 5, 2.0, 5, 1.10);
  const auto result = judged(ranked(8, 5, 2.0), fresh, "straggler +5%");
  EXPECT_TRUE(result.failed);
  const gate_row* rank5 = row_named(result, "rank 5 (node0): straggler(time_ms(k))");
  ASSERT_NE(rank5, nullptr);
  EXPECT_EQ(rank5->verdict, gate_verdict::worse);
  EXPECT_NEAR(rank5->fresh_median, 1.10, 1e-9);
  EXPECT_EQ(rank5->bound_text, "<= peers' median + 5%");
  // Balanced ranks: every ratio is 1.
  EXPECT_FALSE(judged(ranked(8, 5, 2.0), ranked(8, 5, 2.0), "straggler +5%").failed);
}

TEST(StragglerGate, ARankThatLostTheKernelOrHasNoPeersIsUnknown) {
  auto fresh = ranked(4, 3, 2.0);
  fresh.ranks[1].trials[2].kernels.clear();
  fresh.ranks[1].trials[2].metrics["other"] = 1.0;  // it wrote something, just not k
  const auto rows = straggler_rows(fresh, nullptr, 0.05);
  bool found = false;
  for (const auto& row : rows) {
    if (row.label != "rank 1 (node0): straggler(time_ms(k))") continue;
    found = true;
    EXPECT_NE(row.why_unknown.find("trial 2: rank 1 measured nothing for it while 3 of its peers"),
              std::string::npos);
    EXPECT_TRUE(row.fresh.empty());
  }
  EXPECT_TRUE(found);
  const auto alone = straggler_rows(ranked(1, 3, 2.0), nullptr, 0.05);
  ASSERT_EQ(alone.size(), 1U);
  EXPECT_NE(alone[0].why_unknown.find("no rank has peers"), std::string::npos);
}

TEST(StragglerAttribution, WorkFollowsTheRankCardStaysWithTheCard) {
  // Rank 1 slow on card A, then on card B: its work.
  EXPECT_EQ(attribute_straggler({{0, "B", 1.0}, {1, "A", 1.1}, {0, "A", 1.0}, {1, "B", 1.1}}, 1.05),
            "work: rank 1 is slow on every card it ran on (A, B)");
  // Card B slow for rank 1, then for rank 0: the card.
  EXPECT_EQ(attribute_straggler({{0, "A", 1.0}, {1, "B", 1.1}, {0, "B", 1.1}, {1, "A", 1.0}}, 1.05),
            "card: B is slow for every rank that ran on it (ranks 0, 1)");
  // One card for all ranks: the others were fast on it, so the card is not slow.
  EXPECT_EQ(attribute_straggler({{0, "A", 1.0}, {1, "A", 1.1}, {2, "A", 1.0}}, 1.05),
            "work: rank(s) 1 slow on A, where rank(s) 0, 2 were not");
  // The slow rank had its card to itself: cannot tell.
  EXPECT_NE(attribute_straggler({{0, "A", 1.0}, {1, "B", 1.1}}, 1.05).find("work or card"),
            std::string::npos);
  EXPECT_EQ(attribute_straggler({{0, "", 1.0}, {1, "", 1.1}}, 1.05), "");
  EXPECT_EQ(attribute_straggler({{0, "A", 1.0}, {1, "B", 1.0}}, 1.05), "");
}

TEST(BaselineRanks, RoundTripKeepsEveryRanksSeriesAndPlaces) {
  const auto test = ranked(3, 2, 1.5, 1, 1.2, {"GPU-a", "GPU-b"});
  const auto back = baseline_from_json(baseline_to_json(test), "t.json", "t");
  ASSERT_EQ(back.ranks.size(), 3U);
  EXPECT_DOUBLE_EQ(back.ranks.at(1).trials.at(1).kernels.at("k").time_ms,
                   test.ranks.at(1).trials.at(1).kernels.at("k").time_ms);
  EXPECT_EQ(back.ranks.at(2).places.at(0).card, "GPU-a");
  EXPECT_EQ(back.ranks.at(1).places.at(1).host, "node0");
}

TEST(BaselineRanks, HostileRanksAreRefusedNamingTheKey) {
  auto json = baseline_to_json(ranked(2, 2, 1.0));
  const auto refused = [&](const nlohmann::json& doc, const std::string& what) {
    try {
      (void)baseline_from_json(doc, "t.json", "t");
    } catch (const aorta::error& e) {
      EXPECT_NE(std::string(e.what()).find(what), std::string::npos) << e.what();
      return;
    }
    ADD_FAILURE() << "accepted: " << what;
  };
  auto bad_key = json;
  bad_key["ranks"]["-1"] = bad_key["ranks"]["0"];
  refused(bad_key, "'ranks' has the key '-1', not a rank number");
  auto short_series = json;
  short_series["ranks"]["1"]["kernels"]["k"]["time_ms"]["samples"] = {1.0};
  refused(short_series, "'ranks.1.kernels.k.time_ms.samples' has 1 values but the baseline has 2");
  auto bad_places = json;
  bad_places["ranks"]["0"]["places"] = {1, 2};
  refused(bad_places, "'ranks.0.places' holds number, not an object");
  auto not_object = json;
  not_object["ranks"] = nlohmann::json::array();
  refused(not_object, "'ranks' is not an object");
}

TEST(RankRowsJson, ARanksOwnSeriesRoundTripsAndHostileOnesAreRefused) {
  aorta::rank_row row;
  row.rank = 3;
  row.card = "GPU-x";
  row.card_source = "CUDA_VISIBLE_DEVICES";
  row.metrics["callgrind_ir.main"] = 100.0;
  row.kernels["k"] = {std::optional<std::uint64_t>(4), 1.5};
  const auto back = rank_rows_from_json(rank_rows_to_json({row}));
  ASSERT_EQ(back.size(), 1U);
  EXPECT_EQ(back[0].card, "GPU-x");
  EXPECT_EQ(back[0].metrics.at("callgrind_ir.main"), 100.0);
  EXPECT_EQ(back[0].kernels.at("k").first, 4U);
  const auto refused = [](nlohmann::json rows, const std::string& what) {
    try {
      (void)rank_rows_from_json(rows);
    } catch (const aorta::error& e) {
      EXPECT_NE(std::string(e.what()).find(what), std::string::npos) << e.what();
      return;
    }
    ADD_FAILURE() << "accepted: " << rows.dump();
  };
  auto json = rank_rows_to_json({row});
  auto negative = json;
  negative[0]["metrics"]["callgrind_ir.main"] = -1;
  refused(negative, "'metrics.callgrind_ir.main' must be a finite non-negative number");
  auto list = json;
  list[0]["metrics"] = nlohmann::json::array({1, 2});
  refused(list, "'metrics' must be an object");
  auto no_time = json;
  no_time[0]["kernels"]["k"].erase("time_ms");
  refused(no_time, "malformed");
  auto bad_launches = json;
  bad_launches[0]["kernels"]["k"]["launches"] = -2;
  refused(bad_launches, "'launches' must be a whole number");
}

TEST(RankCard, CudaVisibleDevicesAndTheLocalRankPickTheCard) {
  const std::vector<std::string> host{"GPU-0", "GPU-1", "GPU-2"};
  EXPECT_EQ(card_of_rank({{"CUDA_VISIBLE_DEVICES", "2"}}, host).card, "GPU-2");
  EXPECT_EQ(card_of_rank({{"CUDA_VISIBLE_DEVICES", "GPU-abc"}}, {}).card, "GPU-abc");
  const auto indexed = card_of_rank({{"CUDA_VISIBLE_DEVICES", "2,0"}, {"LOCAL_RANK", "1"}}, host);
  EXPECT_EQ(indexed.card, "GPU-0");
  EXPECT_EQ(indexed.source, "LOCAL_RANK=1 indexes CUDA_VISIBLE_DEVICES");
  EXPECT_EQ(card_of_rank({{"CUDA_VISIBLE_DEVICES", "7"}}, host).card, "GPU index 7");
  EXPECT_EQ(card_of_rank({{"OMPI_COMM_WORLD_LOCAL_RANK", "1"}}, host).card, "GPU-1");
  EXPECT_EQ(card_of_rank({}, {"GPU-only"}).source, "the host's only GPU");
  // Nothing tells: several cards and no local rank, a local rank out of range, a strange entry.
  EXPECT_EQ(card_of_rank({}, host).card, "");
  EXPECT_EQ(card_of_rank({{"LOCAL_RANK", "5"}}, host).card, "");
  EXPECT_EQ(card_of_rank({{"CUDA_VISIBLE_DEVICES", "fast"}}, host).card, "");
  EXPECT_EQ(card_of_rank({{"CUDA_VISIBLE_DEVICES", "0,1"}, {"LOCAL_RANK", "x"}}, host).card, "");
}

TEST(RankCard, TheDriversGpuListInBusOrder) {
  const auto dir =
      std::filesystem::temp_directory_path() / ("aorta-rank-card-" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  for (const auto& [bus, uuid] :
       {std::pair{"0000:b1:00.0", "GPU-second"}, std::pair{"0000:17:00.0", "GPU-first"}}) {
    std::filesystem::create_directories(dir / bus);
    std::ofstream(dir / bus / "information")
        << "Model: \t\t NVIDIA H100\nGPU UUID: \t GPU-" << std::string(uuid).substr(4) << "\n";
  }
  std::filesystem::create_directories(dir / "0000:ff:00.0");  // no information file
  EXPECT_EQ(host_gpu_uuids(dir),
            (std::vector<std::string>{"GPU-first", "GPU-second", "GPU at 0000:ff:00.0"}));
  EXPECT_TRUE(host_gpu_uuids(dir / "absent").empty());
  std::filesystem::remove_all(dir);
}

}  // namespace
