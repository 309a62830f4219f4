// The PostgreSQL history store's side that needs no server: a URL selects it, messages name the
// server and database but never the password, and an unreachable server is a clear failure. A
// build without libpq refuses a URL as a usage error. The tests against a real server are in
// tests/history/postgresql_cli_test.py.
#include "aorta/error.hpp"
#include "history/history_store.hpp"

#include <gtest/gtest.h>

#include <string>

namespace aorta::detail {
namespace {

std::string refusal(const std::string& url, exit_code& code) {
  try {
    (void)open_history_store(url, store_access::read_only);
  } catch (const error& e) {
    code = e.code();
    return e.what();
  }
  ADD_FAILURE() << "opening " << url << " did not fail";
  return {};
}

#ifdef AORTA_WITH_POSTGRESQL

TEST(HistoryPostgresql, MessagesShowTheUrlWithoutItsPassword) {
  EXPECT_EQ(describe_history_store("postgresql://ci:hunter2@db.example:5433/perf"),
            "postgresql://ci@db.example:5433/perf");
  EXPECT_EQ(describe_history_store("postgres://db.example/perf?password=hunter2"),
            "postgresql://db.example/perf");
  EXPECT_EQ(describe_history_store("results/history.sqlite"), "results/history.sqlite");
}

TEST(HistoryPostgresql, AnUnreachableServerIsNamedAndItsPasswordNot) {
  for (const std::string scheme : {"postgresql", "postgres"}) {
    exit_code code = exit_code::ok;
    const std::string message = refusal(
        scheme + "://ci:hunter2@/perf?host=/nonexistent-aorta-socket-dir&connect_timeout=2", code);
    EXPECT_EQ(code, exit_code::failed);
    EXPECT_NE(message.find("postgresql://ci@/nonexistent-aorta-socket-dir/perf"), std::string::npos)
        << message;
    EXPECT_NE(message.find("cannot connect"), std::string::npos) << message;
    EXPECT_EQ(message.find("hunter2"), std::string::npos) << message;
  }
}

#else

TEST(HistoryPostgresql, ABuildWithoutLibpqRefusesAUrlAsAUsageError) {
  exit_code code = exit_code::ok;
  const std::string message = refusal("postgresql://ci:hunter2@db/perf", code);
  EXPECT_EQ(code, exit_code::usage);
  EXPECT_NE(message.find("built without PostgreSQL"), std::string::npos) << message;
  EXPECT_EQ(message.find("hunter2"), std::string::npos) << message;
}

#endif

}  // namespace
}  // namespace aorta::detail
