#include "metrics/sorted_merge.hpp"

#include <algorithm>
#include <utility>

namespace aorta::detail {

namespace {

// Each node moves from the front of its map to the end of `merged`: a constant-time extract and a
// constant-time insert at the rightmost position, as both maps are in key order.
void merge_into_fresh(metric_map& into, metric_map& from, const metric_clash& on_clash) {
  metric_map merged;
  while (!into.empty() && !from.empty()) {
    const int order = into.begin()->first.compare(from.begin()->first);
    if (order < 0) {
      merged.insert(merged.end(), into.extract(into.begin()));
      continue;
    }
    if (order == 0) {
      on_clash(from.begin()->first, from.begin()->second, into.begin()->second);
      into.erase(into.begin());
    }
    merged.insert(merged.end(), from.extract(from.begin()));
  }
  for (metric_map* rest : {&into, &from})
    while (!rest->empty()) merged.insert(merged.end(), rest->extract(rest->begin()));
  into = std::move(merged);
}

// Each node of the smaller map is inserted into the larger with a search; the result ends in
// `into`. A few metrics merged into 200,000 cost a few searches, not a walk of them all.
void insert_smaller(metric_map& into, metric_map& from, const metric_clash& on_clash) {
  if (into.size() >= from.size()) {
    while (!from.empty()) {
      auto result = into.insert(from.extract(from.begin()));
      if (result.inserted) continue;
      on_clash(result.position->first, result.node.mapped(), result.position->second);
      result.position->second = std::move(result.node.mapped());
    }
    return;
  }
  while (!into.empty()) {
    auto result = from.insert(into.extract(into.begin()));
    if (!result.inserted)
      on_clash(result.position->first, result.position->second, result.node.mapped());
  }
  into.swap(from);
}

}  // namespace

void merge_sorted(metric_map& into, metric_map& from, const metric_clash& on_clash) {
  // Below this share of the larger map, searching for each node of the smaller one is cheaper
  // than moving every node of both.
  constexpr std::size_t walk_share = 16;
  const std::size_t smaller = std::min(into.size(), from.size());
  const std::size_t larger = std::max(into.size(), from.size());
  if (smaller <= larger / walk_share) {
    insert_smaller(into, from, on_clash);
  } else {
    merge_into_fresh(into, from, on_clash);
  }
}

}  // namespace aorta::detail
