// Moving the metrics of one map into another. A hinted insert after each node inserted climbs
// from that node back up the tree to find the next position: with 200,000 scope metrics that
// climb was an eighth of a check, and it grows with the tree's height.
#pragma once

#include "aorta/metrics.hpp"

#include <functional>
#include <map>
#include <string>

namespace aorta::detail {

using metric_map = std::map<std::string, metric_value>;

// Called for a name both maps hold, before `from`'s value replaces `into`'s.
using metric_clash = std::function<void(const std::string& name, const metric_value& kept,
                                        const metric_value& replaced)>;

// Moves every node of `from` into `into` (from is left empty); of a name in both, `from`'s value
// is kept and `on_clash` told, in key order. When one map holds at most a sixteenth of the other,
// its nodes are inserted into the other with a search each (m log n); otherwise every node of
// both moves into a fresh map, each appended at its end (m + n).
void merge_sorted(metric_map& into, metric_map& from, const metric_clash& on_clash);

}  // namespace aorta::detail
