// sum_over_ranks: the default view of a multi-rank trial, which metrics and plain checks read.
#include "aorta/capture.hpp"
#include "captures/frame_tree.hpp"
#include "captures/pc_samples.hpp"
#include "checked_sum.hpp"
#include "metrics/quantity_table.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>
#include <tuple>
#include <utility>

namespace aorta {

capture sum_over_ranks(const std::vector<const capture*>& per_rank) {
  capture total;
  if (per_rank.empty()) return total;
  total.collector = per_rank.front()->collector;
  // <trial>/rank_<r>/<collector> -> <trial>
  total.artifact_dir = per_rank.front()->artifact_dir.parent_path().parent_path();
  std::map<std::string, std::size_t> kernel_at;
  std::map<std::pair<std::string, std::string>, std::size_t> scope_at;
  std::map<std::string, std::size_t> function_at;
  // A checker's total is known for the sum only when every rank's report was read.
  bool every_report_read = true;
  std::uint64_t reported_errors = 0;
  std::map<std::pair<std::vector<std::string>, std::string>, std::size_t> text_at;
  std::map<std::string, std::size_t> number_at;
  std::map<std::pair<std::string, std::string>, std::size_t> counter_at;
  // (type, id) of the devices kept: a set, not a search of the list per device.
  std::set<std::pair<std::string, std::string>> device_seen;
  // The scope and function fields the quantity table sums over ranks (its `ranks` column).
  std::vector<double scope_stat::*> summed_scope_fields;
  std::vector<std::pair<std::uint64_t function_cost::*, std::string_view>> summed_function_fields;
  for (const detail::quantity_declaration& row : detail::quantity_table()) {
    if (row.ranks != detail::rank_combination::summed) continue;
    if (row.reads.scope != nullptr) summed_scope_fields.push_back(row.reads.scope);
    if (row.reads.function != nullptr)
      summed_function_fields.emplace_back(row.reads.function, row.display_name);
  }
  for (const capture* rank : per_rank) {
    total.findings.insert(total.findings.end(), rank->findings.begin(), rank->findings.end());
    const std::string where = fmt::format("{} (sum over ranks)", total.artifact_dir.string());
    if (rank->reported_errors) {
      reported_errors =
          detail::add_count(reported_errors, *rank->reported_errors, where, "error total");
    } else {
      every_report_read = false;
    }
    const std::string label = rank->rank ? fmt::format("rank {}: ", *rank->rank) : "";
    total.files.insert(total.files.end(), rank->files.begin(), rank->files.end());
    if (total.backend.empty()) total.backend = rank->backend;
    for (const auto& note : rank->notes) total.notes.push_back(label + note);
    for (const auto& device : rank->devices) {
      if (device_seen.emplace(device.type, device.id).second) total.devices.push_back(device);
    }
    for (const auto& kernel : rank->kernels) {
      const auto [at, added] = kernel_at.try_emplace(kernel.name.str(), total.kernels.size());
      if (added) {
        total.kernels.push_back(kernel);
        continue;
      }
      kernel_stat& sum = total.kernels[at->second];
      detail::add_to_kernel(sum, kernel.launches, kernel.total_ns, where);
    }
    for (const auto& scope : rank->scopes) {
      const auto [at, added] =
          scope_at.try_emplace({scope.kernel, scope.scope}, total.scopes.size());
      if (added) {
        total.scopes.push_back(scope);
        continue;
      }
      for (const auto field : summed_scope_fields) total.scopes[at->second].*field += scope.*field;
    }
    for (const auto& function : rank->functions) {
      const auto [at, added] = function_at.try_emplace(function.name, total.functions.size());
      if (added) {
        total.functions.push_back(function);
        continue;
      }
      function_cost& sum = total.functions[at->second];
      for (const auto& [field, name] : summed_function_fields)
        sum.*field = detail::add_count(sum.*field, function.*field, where, name);
    }
    // Text cannot be summed: the lowest rank's value stands, a differing one is noted.
    for (const auto& text : rank->text_metrics) {
      const auto [at, added] =
          text_at.try_emplace({text.path, text.key}, total.text_metrics.size());
      if (added) {
        total.text_metrics.push_back(text);
      } else if (total.text_metrics[at->second].text != text.text) {
        total.notes.push_back(fmt::format("{}text metric '{}' is '{}' here; the sum keeps '{}'",
                                          label, text.key, text.text,
                                          total.text_metrics[at->second].text));
      }
    }
    // Instructions and bytes of a kernel add up over the ranks like its time.
    for (const auto& counter : rank->counters) {
      const auto [at, added] =
          counter_at.try_emplace({counter.kernel, counter.metric}, total.counters.size());
      if (added) {
        total.counters.push_back(counter);
        continue;
      }
      auto& sum = total.counters[at->second];
      sum.value = detail::add_duration(sum.value, counter.value, where, counter.metric);
    }
    // A benchmark's time or counter per rank is a rate or a per-iteration figure, not a share of
    // a total: like text, the lowest rank's value stands and a differing one is noted.
    for (const auto& number : rank->numeric_metrics) {
      const auto [at, added] = number_at.try_emplace(number.key, total.numeric_metrics.size());
      if (added) {
        total.numeric_metrics.push_back(number);
      } else if (total.numeric_metrics[at->second].value != number.value) {
        total.notes.push_back(fmt::format("{}metric '{}' is {} here; the sum keeps {}", label,
                                          number.key, number.value,
                                          total.numeric_metrics[at->second].value));
      }
    }
  }
  if (every_report_read) total.reported_errors = reported_errors;
  std::vector<const std::vector<pc_sample_line>*> sampled;
  for (const capture* rank : per_rank) sampled.push_back(&rank->pc_samples);
  total.pc_samples = detail::sum_pc_samples(
      sampled, fmt::format("{} (sum over ranks)", total.artifact_dir.string()));
  std::stable_sort(total.kernels.begin(), total.kernels.end(),
                   [](const auto& a, const auto& b) { return a.total_ns > b.total_ns; });
  std::sort(total.counters.begin(), total.counters.end(), [](const auto& a, const auto& b) {
    return std::tie(a.kernel, a.metric) < std::tie(b.kernel, b.metric);
  });
  std::stable_sort(total.functions.begin(), total.functions.end(),
                   [](const auto& a, const auto& b) { return a.inclusive_ir > b.inclusive_ir; });
  return total;
}

}  // namespace aorta
