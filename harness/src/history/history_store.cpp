#include "history/history_store.hpp"

#include "aorta/error.hpp"
#include "history/sqlite_history_store.hpp"

#ifdef AORTA_WITH_POSTGRESQL
#include "history/postgresql_history_store.hpp"
#endif

namespace aorta::detail {
namespace {

bool is_postgresql_url(const std::string& location) {
  return location.starts_with("postgresql://") || location.starts_with("postgres://");
}

}  // namespace

std::string describe_history_store(const std::string& location) {
  if (!is_postgresql_url(location)) return location;
#ifdef AORTA_WITH_POSTGRESQL
  return describe_postgresql_url(location);
#else
  return "a postgresql:// URL";
#endif
}

std::unique_ptr<history_store> open_history_store(const std::string& location,
                                                  store_access access) {
  if (location.empty()) {
    throw usage_error("--history: give a store: an SQLite file path or a postgresql:// URL");
  }
  if (is_postgresql_url(location)) {
#ifdef AORTA_WITH_POSTGRESQL
    return open_postgresql_history(location, access);
#else
    // The URL is not echoed: it may carry a password.
    throw usage_error("--history: a postgresql:// URL names a PostgreSQL store, but this aorta was "
                      "built without PostgreSQL (configure with libpq-dev installed and "
                      "-DAORTA_WITH_POSTGRESQL=ON); use an SQLite file path instead");
#endif
  }
  return open_sqlite_history(location, access);
}

}  // namespace aorta::detail
