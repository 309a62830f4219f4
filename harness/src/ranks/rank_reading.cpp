#include "ranks/rank_reading.hpp"

#include "aorta/collector.hpp"
#include "aorta/error.hpp"
#include "collectors/capture_reading.hpp"
#include "ranks/rank_exec.hpp"
#include "ranks/rank_identity.hpp"
#include "ranks/rank_plan.hpp"
#include "json_text.hpp"

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
  std::string card;
  std::string card_source;
};

// rank.json is a few hundred bytes written by rank-exec; anything far larger is not one.
constexpr std::uintmax_t max_rank_json_bytes = 64 * 1024;

// The claim rank-exec wrote, each field checked: a rank.json someone else wrote (a wrong type, a
// world size of 2^31 - 1) is a problem naming the file and key, never an internal error and never
// a size that memory is reserved for.
claimed_rank read_claim(const std::filesystem::path& dir, std::vector<std::string>& problems) {
  claimed_rank claim{dir, "?", "?", std::nullopt, {}, {}};
  const auto file = dir / "rank.json";
  const auto refuse = [&](const std::string& why) {
    problems.push_back(fmt::format("{}: {}; rank-exec writes this file, so another process wrote "
                                   "or changed it. Fix: remove the trial directory and run again",
                                   file.string(), why));
  };
  std::error_code ec;
  const auto size = std::filesystem::file_size(file, ec);
  if (ec || !std::filesystem::is_regular_file(std::filesystem::symlink_status(file, ec))) {
    refuse("missing or not a regular file");
    return claim;
  }
  if (size > max_rank_json_bytes) {
    refuse(fmt::format("{} bytes, larger than {} (max_rank_json_bytes)", size, max_rank_json_bytes));
    return claim;
  }
  nlohmann::json json;
  try {
    std::ifstream stream(file, std::ios::binary);
    json = parse_json(stream);
  } catch (const json_input_error& e) {
    refuse(fmt::format("not valid JSON ({})", e.what()));
    return claim;
  }
  if (!json.is_object()) {
    refuse(fmt::format("is {}, not a JSON object", json.type_name()));
    return claim;
  }
  for (const auto& [key, into] :
       {std::pair{"host", &claim.host}, std::pair{"variable", &claim.variable},
        std::pair{"card", &claim.card}, std::pair{"card_source", &claim.card_source}}) {
    const auto found = json.find(key);
    if (found == json.end()) continue;
    if (!found->is_string()) {
      refuse(fmt::format("'{}' is {} ({}), not a string", key, found->type_name(),
                         dump_json(*found).substr(0, 80)));
      continue;
    }
    *into = found->get<std::string>();
  }
  if (const auto found = json.find("world_size"); found != json.end()) {
    if (!found->is_number_integer() || found->get<long long>() < 1 ||
        found->get<long long>() > max_ranks) {
      refuse(fmt::format("'world_size' is {}, not a whole number from 1 to {} (max_ranks)",
                         dump_json(*found).substr(0, 80), max_ranks));
    } else {
      claim.world_size = found->get<int>();
    }
  }
  return claim;
}

std::map<int, claimed_rank> claimed_ranks(const std::filesystem::path& trial_dir,
                                          std::vector<std::string>& problems) {
  std::map<int, claimed_rank> found;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(trial_dir, ec)) {
    const std::string name = entry.path().filename().string();
    std::error_code type_ec;
    if (!entry.is_directory(type_ec) || !name.starts_with("rank_")) continue;
    int rank = -1;
    const char* digits = name.data() + 5;
    const auto [end, error] = std::from_chars(digits, name.data() + name.size(), rank);
    if (error != std::errc{} || end != name.data() + name.size() || rank < 0 || rank >= max_ranks) {
      continue;
    }
    found.emplace(rank, read_claim(entry.path(), problems));
  }
  return found;
}

// "rank 2 wrote nothing: no rank_2 (...)" for one missing rank, one line per run of missing ranks:
// a world size of 10^6 with one rank present is two lines, not 10^6.
void report_missing_ranks(const std::map<int, claimed_rank>& claims, int expected,
                          const std::filesystem::path& trial_dir,
                          std::vector<std::string>& problems) {
  const auto report = [&](int first, int last) {
    const std::string expected_text = fmt::format(
        "(expected ranks 0..{}; the process never started, or the launcher started fewer ranks)",
        expected - 1);
    if (first == last) {
      problems.push_back(fmt::format("rank {} wrote nothing: no {} {}", first,
                                     rank_directory(trial_dir, first).filename().string(),
                                     expected_text));
    } else {
      problems.push_back(fmt::format("ranks {}..{} ({} ranks) wrote nothing: no {} .. {} {}",
                                     first, last, last - first + 1,
                                     rank_directory(trial_dir, first).filename().string(),
                                     rank_directory(trial_dir, last).filename().string(),
                                     expected_text));
    }
  };
  int next = 0;  // the first rank not yet accounted for
  for (const auto& [rank, claim] : claims) {
    if (rank >= expected) break;
    if (rank > next) report(next, rank - 1);
    next = rank + 1;
  }
  if (next < expected) report(next, expected - 1);
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
                                const std::map<std::string, std::string>& versions,
                                bool frames_needed) {
  rank_reading reading;
  reading.problems = rank_errors(trial_dir);
  const auto claims = claimed_ranks(trial_dir, reading.problems);
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
  report_missing_ranks(claims, reading.expected, trial_dir, reading.problems);

  std::map<std::string, std::vector<const capture*>> by_collector;
  for (const auto& [rank, claim] : claims) {
    if (rank >= reading.expected) {
      reading.problems.push_back(fmt::format(
          "rank {} ({}={} on {}) is outside the expected ranks 0..{}", rank, claim.variable, rank,
          claim.host, reading.expected - 1));
    }
    rank_captures got{rank, claim.host, claim.variable, {}, claim.card, claim.card_source};
    bool complete = true;
    for (const auto& request : spec.collect) {
      auto one = read_one_capture(request, claim.dir / request.name, versions, frames_needed);
      if (!one) continue;
      if (one->interrupted_by != 0) {
        // The run stops: no further rank is read, and nothing read is judged.
        reading.interrupted_by = one->interrupted_by;
        reading.interrupt = fmt::format("rank {}: {}", rank, one->error);
        return reading;
      }
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
