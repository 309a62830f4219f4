// One libpq connection of the PostgreSQL history store (docs/history.md): every statement is sent
// with its values as parameters (PQexecParams), never spliced into the SQL text, and every failure
// becomes an aorta::error naming the server and database but never the password.
#pragma once

#include <libpq-fe.h>

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace aorta::detail {

struct pg_result_clearer {
  void operator()(PGresult* result) const noexcept { PQclear(result); }
};
using pg_result = std::unique_ptr<PGresult, pg_result_clearer>;

// A statement the server refused, with its SQLSTATE ("40001", "40P01", ...) so a caller can retry
// a serialization failure or deadlock and report anything else.
struct pg_statement_error {
  std::string sqlstate;
  std::string message;
};

class pg_connection {
public:
  // Throws aorta::error naming `described` (the URL without its password) when the server cannot
  // be reached or refuses the login.
  pg_connection(const std::string& url, std::string described);

  [[nodiscard]] const std::string& described() const noexcept { return m_described; }
  // Runs one statement with text parameters (std::nullopt is SQL NULL); returns the result, or the
  // server's error when the statement failed.
  pg_result run(std::string_view sql, const std::vector<std::optional<std::string>>& parameters,
                pg_statement_error& failure);
  // As run, but a failure throws aorta::error saying `what` went wrong.
  pg_result must_run(std::string_view sql,
                     const std::vector<std::optional<std::string>>& parameters,
                     std::string_view what);
  // Runs aorta's own constant SQL of several statements (the schema); never a user's text.
  void run_script(std::string_view constant_sql, std::string_view what);
  [[noreturn]] void fail(std::string_view what, const pg_statement_error& failure) const;

private:
  struct closer {
    void operator()(PGconn* connection) const noexcept { PQfinish(connection); }
  };
  std::unique_ptr<PGconn, closer> m_connection;
  std::string m_described;
};

}  // namespace aorta::detail
