#include "metrics/pc_sample_metrics.hpp"

#include "checked_sum.hpp"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace aorta::detail {
namespace {

struct kernel_sums {
  std::uint64_t samples = 0;
  std::vector<const pc_sample_line*> lines;
  std::map<std::string, std::uint64_t> reasons;
};

// `key` = <anything><infix><name>/<part>: the name and the part, split at the last '/'.
std::optional<std::pair<std::string, std::string>> split_key(std::string_view rest) {
  const std::size_t slash = rest.rfind('/');
  if (slash == std::string_view::npos || slash == 0 || slash + 1 == rest.size())
    return std::nullopt;
  return std::make_pair(std::string(rest.substr(0, slash)), std::string(rest.substr(slash + 1)));
}

}  // namespace

void add_pc_sample_detail_metrics(const capture& source, const std::string& prefix,
                                  metric_set& out) {
  const std::string where = source.artifact_dir.string();
  std::map<std::string, kernel_sums> kernels;
  for (const pc_sample_line& line : source.pc_samples) {
    kernel_sums& sums = kernels[line.kernel];
    sums.samples = add_count(sums.samples, line.samples, where, "PC samples of " + line.kernel);
    sums.lines.push_back(&line);
    for (const pc_stall& stall : line.stalls)
      sums.reasons[stall.reason] =
          add_count(sums.reasons[stall.reason], stall.samples, where, "stalled_" + stall.reason);
  }
  std::vector<std::pair<const std::string*, kernel_sums*>> ranked;
  for (auto& [name, sums] : kernels) ranked.emplace_back(&name, &sums);
  const auto most_samples = [](const auto& a, const auto& b) {
    return a.second->samples != b.second->samples ? a.second->samples > b.second->samples
                                                  : *a.first < *b.first;
  };
  std::stable_sort(ranked.begin(), ranked.end(), most_samples);
  if (ranked.size() > pc_kernel_metric_limit) ranked.resize(pc_kernel_metric_limit);
  const auto as_metric = [](std::uint64_t count) { return static_cast<std::int64_t>(count); };
  for (const auto& [name, sums] : ranked) {
    out.values[prefix + std::string(pc_kernel_samples_infix) + *name] = as_metric(sums->samples);
    for (const auto& [reason, count] : sums->reasons)
      out.values[prefix + std::string(pc_stalls_infix) + *name + "/" + reason] = as_metric(count);
    std::vector<const pc_sample_line*>& lines = sums->lines;
    const std::size_t kept = std::min(lines.size(), pc_line_metric_limit);
    std::partial_sort(lines.begin(), lines.begin() + static_cast<std::ptrdiff_t>(kept), lines.end(),
                      [](const pc_sample_line* a, const pc_sample_line* b) {
                        return a->samples != b->samples ? a->samples > b->samples
                                                        : a->location < b->location;
                      });
    for (std::size_t i = 0; i < kept; ++i) {
      const pc_sample_line& line = *lines[i];
      out.values[prefix + std::string(pc_line_samples_infix) + *name + "/" + line.location] =
          as_metric(line.samples);
      std::vector<const pc_stall*> stalls;
      for (const pc_stall& stall : line.stalls) stalls.push_back(&stall);
      const std::size_t shown = std::min(stalls.size(), pc_line_stall_limit);
      std::partial_sort(stalls.begin(), stalls.begin() + static_cast<std::ptrdiff_t>(shown),
                        stalls.end(), [](const pc_stall* a, const pc_stall* b) {
                          return a->samples != b->samples ? a->samples > b->samples
                                                          : a->reason < b->reason;
                        });
      for (std::size_t r = 0; r < shown; ++r)
        out.values[prefix + std::string(pc_line_stalls_infix) + *name + "/" + line.location + "/" +
                   stalls[r]->reason] =
            as_metric(checked_count(stalls[r]->samples, where, "stalled_" + stalls[r]->reason));
    }
  }
}

std::map<std::string, pc_kernel_record>
pc_kernels_in_metrics(const std::map<std::string, double>& metrics) {
  std::map<std::string, pc_kernel_record> kernels;
  for (const auto& [key, value] : metrics) {
    if (const std::size_t at = key.find(pc_kernel_samples_infix); at != std::string::npos) {
      kernels[key.substr(at + pc_kernel_samples_infix.size())].samples += value;
    } else if (const std::size_t line = key.find(pc_line_samples_infix);
               line != std::string::npos) {
      if (auto parts = split_key(std::string_view(key).substr(line + pc_line_samples_infix.size())))
        kernels[parts->first].lines[parts->second] += value;
    } else if (const std::size_t stall = key.find(pc_stalls_infix); stall != std::string::npos) {
      if (auto parts = split_key(std::string_view(key).substr(stall + pc_stalls_infix.size())))
        kernels[parts->first].reasons[parts->second] += value;
    } else if (const std::size_t at_line = key.find(pc_line_stalls_infix);
               at_line != std::string::npos) {
      const auto reason =
          split_key(std::string_view(key).substr(at_line + pc_line_stalls_infix.size()));
      if (!reason) continue;
      if (auto line = split_key(reason->first))
        kernels[line->first].line_stalls[line->second][reason->second] += value;
    }
  }
  return kernels;
}

}  // namespace aorta::detail
