// The history store in one PostgreSQL database (docs/history.md), for a fleet of CI runners: the
// schema and commands of the SQLite store over libpq. Each add is one transaction; concurrent adds
// meet on unique keys (ON CONFLICT DO NOTHING), and one the server aborts as a deadlock or
// serialization failure is retried whole, so many writers lose nothing and double nothing.
#pragma once

#include "history/history_store.hpp"

#include <memory>
#include <string>

namespace aorta::detail {

[[nodiscard]] std::unique_ptr<history_store> open_postgresql_history(const std::string& url,
                                                                     store_access access);

// The URL as messages may show it: user, host, port and database, the password left out.
[[nodiscard]] std::string describe_postgresql_url(const std::string& url);

}  // namespace aorta::detail
