#include "history/saved_detector.hpp"

#include "aorta/error.hpp"

namespace aorta::detail {

series_analysis saved_detector::analyse(const series_key& key, std::vector<series_commit> commits,
                                        const change_point_options& options) {
  change_point_cache cache;
  if (!m_full_pass && m_use.not_saved.empty()) {
    try {
      for (const auto& [bounds, decided] : m_store.read_detector_state(key))
        cache.restore(bounds.first, bounds.second, decided);
    } catch (const error& failure) {
      // A state that cannot be read is one not saved: this pass tests every segment.
      m_use.not_saved = failure.what();
    }
  }
  auto analysis = analyse_series(key, std::move(commits), options, &cache);
  ++m_use.series;
  m_use.segments_reused += cache.segments_reused;
  m_use.segments_tested += cache.segments_tested;
  m_use.permutations_run += cache.permutations_run;
  if (m_full_pass || cache.differs_from_restored()) m_pending.emplace_back(key, cache.reached());
  return analysis;
}

const detector_state_use& saved_detector::save() {
  if (m_pending.empty() || !m_use.not_saved.empty()) return m_use;
  try {
    m_store.save_detector_states(m_pending);
    m_use.series_saved = m_pending.size();
  } catch (const error& failure) {
    m_use.not_saved = failure.what();
  }
  m_pending.clear();
  return m_use;
}

}  // namespace aorta::detail
