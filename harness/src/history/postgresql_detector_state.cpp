#include "history/postgresql_detector_state.hpp"

#include "history/detector_state_rows.hpp"
#include "history/postgresql_schema.hpp"

#include <fmt/format.h>

#include <charconv>

namespace aorta::detail {
namespace {

template <class Number>
std::optional<Number> state_number(const PGresult* result, int row, int column) {
  if (PQgetisnull(result, row, column)) return std::nullopt;
  const char* text = PQgetvalue(result, row, column);
  const char* end = text + PQgetlength(result, row, column);
  Number value{};
  const auto [stop, ec] = std::from_chars(text, end, value);
  if (ec != std::errc() || stop != end) return std::nullopt;
  return value;
}

// Postgres array literals of numbers only, formatted here.
struct state_columns {
  std::string first = "{", last = "{", digest = "{", changed = "{", change_commit = "{",
              range_first = "{", range_last = "{", p = "{", permutations = "{";
  void add(const detector_state_row& row) {
    first += fmt::format("{},", row.first);
    last += fmt::format("{},", row.last);
    digest += fmt::format("{},", row.digest);
    changed += fmt::format("{},", row.changed);
    change_commit += fmt::format("{},", row.change_commit);
    range_first += fmt::format("{},", row.range_first);
    range_last += fmt::format("{},", row.range_last);
    p += fmt::format("{},", row.p);  // the shortest text that reads back as the same double
    permutations += fmt::format("{},", row.permutations);
  }
  std::vector<std::optional<std::string>> closed() {
    std::vector<std::optional<std::string>> arrays;
    for (std::string* column : {&first, &last, &digest, &changed, &change_commit, &range_first,
                                &range_last, &p, &permutations}) {
      if (column->back() == ',') column->pop_back();
      arrays.emplace_back(*column + "}");
    }
    return arrays;
  }
};

}  // namespace

detector_state read_postgresql_detector_state(pg_connection& db, const series_key& key) {
  const pg_result exists = db.must_run("SELECT to_regclass('detector_state') IS NOT NULL", {},
                                       "cannot look for the detector's state");
  if (std::string_view(PQgetvalue(exists.get(), 0, 0)) != "t") return {};
  const pg_result rows = db.must_run(
      "SELECT first_commit, last_commit, digest, changed, change_commit, range_first, "
      "range_last, p, permutations FROM detector_state WHERE test = $1 AND quantity = $2 AND "
      "unit = $3 AND card_uuid = $4",
      {key.test, key.quantity, key.unit, key.card}, "cannot read the detector's state");
  detector_state state;
  for (int r = 0; r < PQntuples(rows.get()); ++r) {
    detector_state_row row;
    std::int64_t* integers[] = {&row.first,         &row.last,        &row.digest,    &row.changed,
                                &row.change_commit, &row.range_first, &row.range_last};
    bool complete = true;
    for (int column = 0; column < 7; ++column) {
      const auto value = state_number<std::int64_t>(rows.get(), r, column);
      complete = complete && value.has_value();
      *integers[column] = value.value_or(0);
    }
    const auto p = state_number<double>(rows.get(), r, 7);
    const auto permutations = state_number<std::int64_t>(rows.get(), r, 8);
    if (!complete || !p || !permutations) continue;
    row.p = *p;
    row.permutations = *permutations;
    if (const auto restored = segment_of_row(row)) state.insert(*restored);
  }
  return state;
}

void save_postgresql_detector_states(
    pg_connection& db, const std::vector<std::pair<series_key, detector_state>>& states) {
  if (states.empty()) return;
  db.must_run("BEGIN", {}, "cannot begin saving the detector's state");
  try {
    db.must_run("SELECT pg_advisory_xact_lock($1::bigint)",
                {std::string(postgresql_schema_lock_key)}, "cannot take the schema lock");
    // CREATE TABLE IF NOT EXISTS would otherwise print the server's NOTICE that it exists.
    db.must_run("SET LOCAL client_min_messages = warning", {}, "cannot save the detector's state");
    db.run_script(postgresql_detector_state_table, "cannot create the detector_state table");
    for (const auto& [key, state] : states) {
      db.must_run("DELETE FROM detector_state WHERE test = $1 AND quantity = $2 AND unit = $3 "
                  "AND card_uuid = $4",
                  {key.test, key.quantity, key.unit, key.card},
                  "cannot replace the detector's state");
      if (state.empty()) continue;
      state_columns columns;
      for (const auto& [bounds, decided] : state) columns.add(row_of_segment(bounds, decided));
      std::vector<std::optional<std::string>> values{key.test, key.quantity, key.unit, key.card};
      for (auto& array : columns.closed()) values.push_back(std::move(array));
      db.must_run(
          "INSERT INTO detector_state (test, quantity, unit, card_uuid, first_commit, "
          "last_commit, digest, changed, change_commit, range_first, range_last, p, "
          "permutations) SELECT $1, $2, $3, $4, f, l, d, c, cc, rf, rl, p, n FROM unnest("
          "$5::bigint[], $6::bigint[], $7::bigint[], $8::integer[], $9::bigint[], $10::bigint[], "
          "$11::bigint[], $12::float8[], $13::integer[]) AS s(f, l, d, c, cc, rf, rl, p, n)",
          values, "cannot save the detector's state");
    }
    db.must_run("COMMIT", {}, "cannot commit the detector's state");
  } catch (...) {
    pg_statement_error ignored;
    db.run("ROLLBACK", {}, ignored);
    throw;
  }
}

}  // namespace aorta::detail
