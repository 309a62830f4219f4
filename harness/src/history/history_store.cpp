#include "history/history_store.hpp"

#include "aorta/error.hpp"
#include "history/sqlite_history_store.hpp"

namespace aorta::detail {

std::unique_ptr<history_store> open_history_store(const std::string& location,
                                                  store_access access) {
  if (location.empty()) throw usage_error("--history: give a store path (an SQLite file)");
  if (location.starts_with("postgresql://") || location.starts_with("postgres://")) {
    // The URL is not echoed: it may carry a password.
    throw usage_error("--history: a postgresql:// URL names a PostgreSQL store, which this build "
                      "does not support yet (the same schema over libpq is planned, "
                      "docs/history.md); use an SQLite file path for now");
  }
  return open_sqlite_history(location, access);
}

}  // namespace aorta::detail
