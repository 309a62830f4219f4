#include "captures/pc_samples.hpp"

#include "checked_sum.hpp"

#include <map>
#include <string>
#include <utility>

namespace aorta::detail {

std::vector<pc_sample_line>
sum_pc_samples(const std::vector<const std::vector<pc_sample_line>*>& parts,
               std::string_view where) {
  std::map<std::pair<std::string, std::string>, pc_sample_line> lines;
  std::map<std::pair<std::string, std::string>, std::map<std::string, std::uint64_t>> stalls;
  const std::string place(where);
  for (const std::vector<pc_sample_line>* part : parts) {
    for (const pc_sample_line& line : *part) {
      const auto key = std::make_pair(line.kernel, line.location);
      auto [at, added] = lines.try_emplace(key);
      pc_sample_line& sum = at->second;
      if (added) {
        sum.kernel = line.kernel;
        sum.location = line.location;
      }
      const std::string what = "PC samples of " + line.location + " in " + line.kernel;
      sum.samples = add_count(sum.samples, line.samples, place, what);
      sum.stalled = add_count(sum.stalled, line.stalled, place, what);
      auto& reasons = stalls[key];
      for (const pc_stall& stall : line.stalls)
        reasons[stall.reason] = add_count(reasons[stall.reason], stall.samples, place, what);
    }
  }
  std::vector<pc_sample_line> out;
  out.reserve(lines.size());
  for (auto& [key, line] : lines) {
    for (const auto& [reason, count] : stalls[key]) line.stalls.push_back({reason, count});
    out.push_back(std::move(line));
  }
  return out;
}

}  // namespace aorta::detail
