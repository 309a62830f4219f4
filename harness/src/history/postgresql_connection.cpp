#include "history/postgresql_connection.hpp"

#include "aorta/error.hpp"
#include "history/postgresql_history_store.hpp"

#include <fmt/format.h>

namespace aorta::detail {
namespace {

struct conninfo_freer {
  void operator()(PQconninfoOption* options) const noexcept { PQconninfoFree(options); }
};

std::string without_trailing_newline(const char* text) {
  std::string line = text == nullptr ? std::string() : std::string(text);
  while (!line.empty() && (line.back() == '\n' || line.back() == ' ')) line.pop_back();
  return line;
}

}  // namespace

std::string describe_postgresql_url(const std::string& url) {
  char* parse_error = nullptr;
  std::unique_ptr<PQconninfoOption, conninfo_freer> options(
      PQconninfoParse(url.c_str(), &parse_error));
  if (options == nullptr) {
    PQfreemem(parse_error);
    return "a postgresql:// URL that libpq cannot parse";
  }
  std::string user, host, port, dbname;
  for (const PQconninfoOption* option = options.get(); option->keyword != nullptr; ++option) {
    if (option->val == nullptr) continue;
    const std::string_view keyword = option->keyword;
    if (keyword == "user") user = option->val;
    if (keyword == "host") host = option->val;
    if (keyword == "port") port = option->val;
    if (keyword == "dbname") dbname = option->val;
  }
  return fmt::format("postgresql://{}{}{}{}/{}", user, user.empty() ? "" : "@",
                     host.empty() ? "(default host)" : host, port.empty() ? "" : ":" + port,
                     dbname.empty() ? "(default database)" : dbname);
}

pg_connection::pg_connection(const std::string& url, std::string described)
    : m_connection(PQconnectdb(url.c_str())), m_described(std::move(described)) {
  if (m_connection == nullptr) {
    throw error(
        exit_code::failed,
        fmt::format("history store {}: libpq could not allocate a connection", m_described));
  }
  if (PQstatus(m_connection.get()) != CONNECTION_OK) {
    // libpq's message names the host or socket and the reason; it never repeats the password.
    throw error(exit_code::failed,
                fmt::format("history store {}: cannot connect: {}; check that the server runs and "
                            "that the URL's host, port, database, user and password are right",
                            m_described,
                            without_trailing_newline(PQerrorMessage(m_connection.get()))));
  }
}

pg_result pg_connection::run(std::string_view sql,
                             const std::vector<std::optional<std::string>>& parameters,
                             pg_statement_error& failure) {
  std::vector<const char*> values;
  values.reserve(parameters.size());
  for (const auto& parameter : parameters)
    values.push_back(parameter ? parameter->c_str() : nullptr);
  const std::string text(sql);
  pg_result result(PQexecParams(m_connection.get(), text.c_str(), static_cast<int>(values.size()),
                                nullptr, values.data(), nullptr, nullptr, 0));
  const auto status = result ? PQresultStatus(result.get()) : PGRES_FATAL_ERROR;
  if (status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK) return result;
  const char* sqlstate = result ? PQresultErrorField(result.get(), PG_DIAG_SQLSTATE) : nullptr;
  failure.sqlstate = sqlstate == nullptr ? "" : sqlstate;
  failure.message = without_trailing_newline(PQerrorMessage(m_connection.get()));
  return nullptr;
}

pg_result pg_connection::must_run(std::string_view sql,
                                  const std::vector<std::optional<std::string>>& parameters,
                                  std::string_view what) {
  pg_statement_error failure;
  pg_result result = run(sql, parameters, failure);
  if (result == nullptr) fail(what, failure);
  return result;
}

void pg_connection::run_script(std::string_view constant_sql, std::string_view what) {
  const std::string text(constant_sql);
  pg_result result(PQexec(m_connection.get(), text.c_str()));
  if (result && PQresultStatus(result.get()) == PGRES_COMMAND_OK) return;
  const char* sqlstate = result ? PQresultErrorField(result.get(), PG_DIAG_SQLSTATE) : nullptr;
  fail(what, {sqlstate == nullptr ? "" : sqlstate,
              without_trailing_newline(PQerrorMessage(m_connection.get()))});
}

void pg_connection::fail(std::string_view what, const pg_statement_error& failure) const {
  throw error(exit_code::failed,
              fmt::format("history store {}: {}: {} (SQLSTATE {}); nothing was added; retry, and "
                          "report the message if it persists",
                          m_described, what, failure.message,
                          failure.sqlstate.empty() ? "none" : failure.sqlstate));
}

}  // namespace aorta::detail
