#include "ranks/rank_reading.hpp"

#include "aorta/collector.hpp"
#include "aorta/error.hpp"
#include "collectors/capture_reading.hpp"
#include "ranks/rank_exec.hpp"
#include "ranks/rank_plan.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <charconv>
#include <fstream>
#include <map>

namespace aorta::detail {
namespace {

struct claimed_rank {
  std::filesystem::path dir;
  std::string host;
  std::string variable;
  std::optional<int> world_size;
};

std::map<int, claimed_rank> claimed_ranks(const std::filesystem::path& trial_dir) {
  std::map<int, claimed_rank> found;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(trial_dir, ec)) {
    const std::string name = entry.path().filename().string();
    if (!entry.is_directory() || !name.starts_with("rank_")) continue;
    int rank = -1;
    const char* digits = name.data() + 5;
    const auto [end, error] = std::from_chars(digits, name.data() + name.size(), rank);
    if (error != std::errc{} || end != name.data() + name.size()) continue;
    claimed_rank claim{entry.path(), {}, {}, std::nullopt};
    std::ifstream file(entry.path() / "rank.json");
    const auto json = nlohmann::json::parse(file, nullptr, false);
    if (json.is_object()) {
      claim.host = json.value("host", "");
      claim.variable = json.value("variable", "");
      if (json.contains("world_size") && json["world_size"].is_number_integer()) {
        claim.world_size = json["world_size"].get<int>();
      }
    }
    found.emplace(rank, std::move(claim));
  }
  return found;
}

std::vector<std::string> rank_errors(const std::filesystem::path& trial_dir) {
  std::vector<std::string> errors;
  std::error_code ec;
  for (const auto& entry :
       std::filesystem::directory_iterator(rank_errors_directory(trial_dir), ec)) {
    std::ifstream file(entry.path());
    std::string line;
    if (std::getline(file, line) && !line.empty()) errors.push_back(line);
  }
  std::sort(errors.begin(), errors.end());
  return errors;
}

std::string first_line(const std::string& text) {
  return text.substr(0, text.find('\n'));
}

}  // namespace

rank_reading read_rank_captures(const recipe& spec, const std::filesystem::path& trial_dir,
                                std::optional<int> expected,
                                const std::map<std::string, std::string>& versions) {
  rank_reading reading;
  reading.problems = rank_errors(trial_dir);
  const auto claims = claimed_ranks(trial_dir);
  if (!expected) {
    for (const auto& [rank, claim] : claims) {
      if (claim.world_size) expected = std::max(expected.value_or(0), *claim.world_size);
    }
  }
  if (!expected && claims.empty()) {
    reading.problems.push_back(
        "no rank started aorta's per-rank entry (aorta rank-exec), and neither the recipe "
        "(ranks:) nor the launcher's arguments say how many ranks to expect");
    return reading;
  }
  reading.expected = expected.value_or(static_cast<int>(claims.size()));
  for (int rank = 0; rank < reading.expected; ++rank) {
    if (claims.contains(rank)) continue;
    reading.problems.push_back(fmt::format(
        "rank {} wrote nothing: no {} (expected ranks 0..{}; the process never started, or the "
        "launcher started fewer ranks)",
        rank, rank_directory(trial_dir, rank).filename().string(), reading.expected - 1));
  }

  std::map<std::string, std::vector<const capture*>> by_collector;
  for (const auto& [rank, claim] : claims) {
    if (rank >= reading.expected) {
      reading.problems.push_back(fmt::format(
          "rank {} ({}={} on {}) is outside the expected ranks 0..{}", rank, claim.variable, rank,
          claim.host, reading.expected - 1));
    }
    rank_captures got{rank, claim.host, claim.variable, {}};
    bool complete = true;
    for (const auto& request : spec.collect) {
      auto one = read_one_capture(request, claim.dir / request.name, versions);
      if (!one) continue;
      if (!one->got) {
        reading.problems.push_back(fmt::format("rank {}: {}", rank, one->error));
        complete = false;
        continue;
      }
      got.captures.push_back(std::move(*one->got));
      got.captures.back().rank = rank;
      if (one->empty) {
        complete = false;
        if (!spec.allow_empty) {
          reading.problems.push_back(
              fmt::format("rank {} on {} wrote an {}", rank, claim.host, first_line(*one->empty)));
        }
      }
      // As for a single-process capture: errors a report shows fail the trial whatever the checks.
      if (one->failure) {
        reading.problems.push_back(fmt::format("rank {} on {}: {}", rank, claim.host, *one->failure));
      }
    }
    if (complete) ++reading.complete;
    reading.ranks.push_back(std::move(got));
  }
  for (const auto& rank : reading.ranks) {
    for (const auto& got : rank.captures) by_collector[got.collector].push_back(&got);
  }
  for (const auto& request : spec.collect) {
    const auto found = by_collector.find(request.name);
    if (found != by_collector.end()) reading.summed.push_back(sum_over_ranks(found->second));
  }
  return reading;
}

}  // namespace aorta::detail
