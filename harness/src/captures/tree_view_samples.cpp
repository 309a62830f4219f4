#include "captures/tree_view_samples.hpp"

#include "checked_sum.hpp"

#include <algorithm>

#include <fmt/format.h>

namespace aorta::detail {

std::vector<double> sample_shares(const view_tree& tree,
                                  const std::vector<double>& inclusive_samples) {
  constexpr auto own = static_cast<std::size_t>(view_metric::samples);
  std::vector<double> shares(tree.nodes.size(), 0.0);
  const double everything = inclusive_samples.empty() ? 0.0 : inclusive_samples[0];
  for (std::size_t i = 0; i < tree.nodes.size(); ++i) {
    const view_node& node = tree.nodes[i];
    // A sampled line is a leaf with samples of its own under its kernel (not under ROOT).
    const bool line = i != 0 && node.parent != 0 && node.children.empty() && node.own[own] > 0;
    const double whole = line ? inclusive_samples[node.parent] : everything;
    shares[i] = whole > 0 ? 100.0 * inclusive_samples[i] / whole : 0.0;
  }
  return shares;
}

std::vector<std::vector<pc_stall>> inclusive_stalls(const view_tree& tree) {
  const std::size_t reasons = tree.stall_reasons.size();
  std::vector<std::vector<pc_stall>> out(tree.nodes.size());
  if (reasons == 0) return out;
  // One row of counts per node that has stalls or a descendant with them; children come after
  // their parent, so one backward pass sums bottom-up.
  std::vector<std::vector<std::uint64_t>> sums(tree.nodes.size());
  for (std::size_t i = tree.nodes.size(); i-- > 0;) {
    const view_node& node = tree.nodes[i];
    if (!node.stalls.empty() && sums[i].empty()) sums[i].assign(reasons, 0);
    for (const auto& [reason, count] : node.stalls)
      sums[i][reason] =
          add_count(sums[i][reason], count, "aorta view", "stalled_" + tree.stall_reasons[reason]);
    if (i == 0 || sums[i].empty()) continue;
    std::vector<std::uint64_t>& into = sums[node.parent];
    if (into.empty()) into.assign(reasons, 0);
    for (std::size_t r = 0; r < reasons; ++r)
      into[r] = add_count(into[r], sums[i][r], "aorta view", "stalled_" + tree.stall_reasons[r]);
  }
  std::vector<std::pair<std::uint64_t, std::uint32_t>> ranked;
  for (std::size_t i = 0; i < tree.nodes.size(); ++i) {
    ranked.clear();
    for (std::size_t r = 0; r < sums[i].size(); ++r)
      if (sums[i][r] > 0) ranked.emplace_back(sums[i][r], static_cast<std::uint32_t>(r));
    const std::size_t kept = std::min(ranked.size(), view_top_stalls);
    // Largest first; ties by reason name, so the text does not depend on the file's order.
    std::partial_sort(ranked.begin(), ranked.begin() + static_cast<std::ptrdiff_t>(kept),
                      ranked.end(), [&](const auto& a, const auto& b) {
                        return a.first != b.first
                                   ? a.first > b.first
                                   : tree.stall_reasons[a.second] < tree.stall_reasons[b.second];
                      });
    for (std::size_t k = 0; k < kept; ++k)
      out[i].push_back({tree.stall_reasons[ranked[k].second], ranked[k].first});
    std::vector<std::uint64_t>().swap(sums[i]);
  }
  return out;
}

std::string top_stalls_text(const std::vector<pc_stall>& stalls, double samples) {
  if (stalls.empty() || samples <= 0) return {};
  std::string text = "stalls:";
  for (std::size_t i = 0; i < stalls.size() && i < view_top_stalls; ++i) {
    text += fmt::format("{} {} {:.0f}%", i == 0 ? "" : ",", stalls[i].reason,
                        100.0 * static_cast<double>(stalls[i].samples) / samples);
  }
  return text;
}

}  // namespace aorta::detail
