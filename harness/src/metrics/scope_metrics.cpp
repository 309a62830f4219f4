#include "metrics/scope_metrics.hpp"

#include "metrics/quantity_table.hpp"
#include "metrics/sorted_merge.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <string_view>

namespace aorta::detail {
namespace {

// One (scope, kernel) pair's totals over the capture's entries of it.
struct scope_group {
  const scope_stat* pair;
  double cycles = 0.0;
  double normalized_cycles = 0.0;
};

// The capture's scope entries grouped by (scope, kernel), in that order: one sort, where a
// std::map insert with fresh key strings per entry was a third of a check of 100,000 scopes.
std::vector<scope_group> scope_groups(const capture& source) {
  std::vector<const scope_stat*> order;
  order.reserve(source.scopes.size());
  for (const scope_stat& entry : source.scopes) order.push_back(&entry);
  // Stable: a pair's entries are summed in the capture's order, so the totals round alike.
  std::stable_sort(order.begin(), order.end(), [](const scope_stat* a, const scope_stat* b) {
    const int scope = a->scope.compare(b->scope);
    return scope != 0 ? scope < 0 : a->kernel < b->kernel;
  });
  std::vector<scope_group> groups;
  for (const scope_stat* entry : order) {
    if (groups.empty() || groups.back().pair->scope != entry->scope ||
        groups.back().pair->kernel != entry->kernel)
      groups.push_back({entry});
    groups.back().cycles += entry->cycles;
    groups.back().normalized_cycles += entry->normalized_cycles;
  }
  return groups;
}

struct named_value {
  std::string name;
  double value;
};

// `prefix + name` for each value, appended in key order to a map of their own (constant time
// each) and merged into `out` in one walk. Of equal names the last one wins, as assigning them one
// after another did, and a name `out` already holds is replaced.
void put_in_key_order(metric_set& out, std::string_view prefix, std::vector<named_value>& values) {
  const auto by_name = [](const named_value& a, const named_value& b) { return a.name < b.name; };
  if (!std::is_sorted(values.begin(), values.end(), by_name))
    std::stable_sort(values.begin(), values.end(), by_name);
  metric_map added;
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (i + 1 < values.size() && values[i + 1].name == values[i].name) continue;
    std::string key;
    key.reserve(prefix.size() + values[i].name.size());
    key.append(prefix).append(values[i].name);
    added.emplace_hint(added.end(), std::move(key), values[i].value);
  }
  merge_sorted(out.values, added,
               [](const std::string&, const metric_value&, const metric_value&) {});
}

// A finite value is kept for put_in_key_order; another gives a note, as compute_metrics does.
void keep_finite(metric_set& out, std::string_view prefix, const std::string& name, double value,
                 std::vector<named_value>& kept) {
  if (std::isfinite(value))
    kept.push_back({name, value});
  else
    out.notes.push_back(fmt::format("{}{} omitted: the summed value is not finite", prefix, name));
}

}  // namespace

// A scope's metrics are keyed by its name, or by <kernel>/<scope> when it occurs under several
// kernels; values and notes as one put_finite per (scope, kernel) in that order would give them.
void add_scope_metrics(const capture& source, metric_set& out) {
  const std::string_view cycles_prefix = scope_cycles_row().metric_prefix;
  const std::string_view normalized_prefix =
      normalized_cycles_row().metric_prefix;
  const std::vector<scope_group> groups = scope_groups(source);
  std::vector<named_value> cycles;
  std::vector<named_value> normalized;
  cycles.reserve(groups.size());
  normalized.reserve(groups.size());
  std::vector<std::string> ambiguity_notes;
  for (std::size_t begin = 0, end = 0; begin < groups.size(); begin = end) {
    const std::string& scope = groups[begin].pair->scope;
    end = begin + 1;
    while (end < groups.size() && groups[end].pair->scope == scope) ++end;
    const bool ambiguous = end - begin > 1;
    std::vector<std::string> kernels;
    for (std::size_t i = begin; i < end; ++i) {
      const scope_group& group = groups[i];
      const std::string name = ambiguous ? group.pair->kernel + "/" + scope : scope;
      if (ambiguous) kernels.push_back(group.pair->kernel);
      keep_finite(out, cycles_prefix, name, group.cycles, cycles);
      keep_finite(out, normalized_prefix, name, group.normalized_cycles, normalized);
    }
    if (ambiguous)
      ambiguity_notes.push_back(fmt::format(
          "scope '{}' occurs in {} kernels ({}); its metrics are keyed <kernel>/{} instead of {}",
          scope, kernels.size(), fmt::join(kernels, ", "), scope, scope));
  }
  put_in_key_order(out, cycles_prefix, cycles);
  put_in_key_order(out, normalized_prefix, normalized);
  for (std::string& note : ambiguity_notes) out.notes.push_back(std::move(note));
}

}  // namespace aorta::detail
