#include "history/sqlite_transaction.hpp"

#include <fmt/format.h>

namespace aorta::detail {

std::string sqlite_failure_fix(int code, int busy_timeout_ms) {
  std::string fix;
  switch (code & 0xff) {
  case SQLITE_BUSY:
  case SQLITE_LOCKED:
    fix = fmt::format("another process held the store's lock for more than {} s; retry the add, "
                      "or find the process that keeps it open",
                      busy_timeout_ms / 1000);
    break;
  case SQLITE_NOTADB:
  case SQLITE_CORRUPT:
    fix = "the file is not an aorta history store (not a SQLite database, or a damaged one); aorta "
          "left it untouched. Fix: point --history at the right file, or move this one away and "
          "add the runs again";
    break;
  case SQLITE_CANTOPEN:
  case SQLITE_PERM:
  case SQLITE_READONLY:
    fix = "check that the file and its directory exist and are writable by this user";
    break;
  case SQLITE_FULL: fix = "the disk is full; free space and add again"; break;
  default: fix = "nothing was added; retry, and report the message if it persists"; break;
  }
  return fix;
}

}  // namespace aorta::detail
