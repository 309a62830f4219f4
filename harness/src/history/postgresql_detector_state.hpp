// The change-point detector's saved state in a PostgreSQL store (history_store.hpp,
// read_detector_state and save_detector_states): the detector_state table of
// postgresql_schema.hpp.
#pragma once

#include "history/history_store.hpp"
#include "history/postgresql_connection.hpp"

#include <utility>
#include <vector>

namespace aorta::detail {

// A row that cannot be a segment's outcome (a damaged table) is left out: its segment is tested
// again.
[[nodiscard]] detector_state read_postgresql_detector_state(pg_connection& db,
                                                            const series_key& key);

// One transaction under the schema lock (so concurrent first saves cannot both create the table,
// and two saves of one series cannot interleave): each series' rows replaced.
void save_postgresql_detector_states(
    pg_connection& db, const std::vector<std::pair<series_key, detector_state>>& states);

}  // namespace aorta::detail
