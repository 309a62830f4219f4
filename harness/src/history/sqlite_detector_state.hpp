// The change-point detector's saved state in an SQLite store (history_store.hpp,
// read_detector_state and save_detector_states): the detector_state table of sqlite_schema.hpp.
#pragma once

#include "history/history_store.hpp"

#include <sqlite3.h>

#include <string>
#include <utility>
#include <vector>

namespace aorta::detail {

// `store` names the file in messages. A row that cannot be a segment's outcome (a damaged table)
// is left out: its segment is tested again.
[[nodiscard]] detector_state read_sqlite_detector_state(sqlite3* db, const std::string& store,
                                                        const series_key& key);

// One IMMEDIATE transaction: the table created when absent, each series' rows replaced.
void save_sqlite_detector_states(sqlite3* db, const std::string& store,
                                 const std::vector<std::pair<series_key, detector_state>>& states);

}  // namespace aorta::detail
