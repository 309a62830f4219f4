// Change points found incrementally across processes (docs/history.md, "Incremental detection"):
// each series' detector state is read from the store before its pass and saved after it, so
// `history changes`, `history show` and `report --history` test again only the segments whose
// samples changed since the last pass: the segments that reach a new commit.
#pragma once

#include "history/history_store.hpp"
#include "history/series_changes.hpp"

#include <string>
#include <utility>
#include <vector>

namespace aorta::detail {

// What the passes of one process reused and did: shown by `history changes --json`.
struct detector_state_use {
  std::size_t series = 0;
  long long segments_reused = 0;  // decided by an earlier pass on the same samples
  long long segments_tested = 0;  // permutation-tested by this process
  long long permutations_run = 0;
  std::size_t series_saved = 0;  // series whose state this process saved (changed since read)
  std::string not_saved;         // why saving failed ("" when it did not): the answers stand
};

class saved_detector {
public:
  // `full_pass`: ignore the saved state; every segment is tested and the state saved anew.
  saved_detector(history_store& store, bool full_pass) : m_store(store), m_full_pass(full_pass) {}

  [[nodiscard]] series_analysis analyse(const series_key& key, std::vector<series_commit> commits,
                                        const change_point_options& options);
  // Saves the state of the series whose pass changed it, in one transaction. A store that cannot
  // take it (a read-only file, a read-only database user) costs the next pass its reuse, nothing
  // else: the reason comes back in not_saved, never as an exception.
  const detector_state_use& save();
  [[nodiscard]] const detector_state_use& use() const { return m_use; }

private:
  history_store& m_store;
  bool m_full_pass;
  std::vector<std::pair<series_key, detector_state>> m_pending;
  detector_state_use m_use;
};

}  // namespace aorta::detail
