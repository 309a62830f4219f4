#include "captures/rocpd_reader.hpp"

#include "aorta/error.hpp"
#include "bounded_input.hpp"
#include "checked_sum.hpp"
#include "captures/rocpd_database.hpp"
#include "captures/rocpd_dispatch_sums.hpp"
#include "captures/rocpd_kernel_names.hpp"

#include <algorithm>
#include <chrono>
#include <memory>
#include <optional>
#include <unordered_map>
#include <unordered_set>
#include <utility>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <sqlite3.h>

namespace aorta::detail {

namespace {

namespace fs = std::filesystem;

std::string schema_version(rocpd_database& db, const fs::path& file) {
  if (!db.has_object("rocpd_metadata"))
    throw capture_error(fmt::format(
        "{}: a SQLite database without the rocpd_metadata view, so not a rocpd database of "
        "rocprofv3 (aorta reads rocpd schema version {}); point aorta at rocprofv3's "
        "<pid>_results.db or ask for output_format: csv",
        file.string(), rocpd_known_schema_version));
  // A few rows at most: an endless view must not grow a list until memory runs out.
  rocpd_stmt stmt =
      db.prepare("SELECT value FROM rocpd_metadata WHERE tag = 'schema_version' LIMIT 8");
  std::vector<std::string> versions;
  while (db.step(stmt.get())) versions.push_back(rocpd_database::text(stmt.get(), 0));
  if (versions.empty())
    throw capture_error(fmt::format("{}: rocpd_metadata has no schema_version row; aorta reads "
                                    "rocpd schema version {} (re-run the capture, or ask "
                                    "rocprofv3 for output_format: csv)",
                                    file.string(), rocpd_known_schema_version));
  for (const std::string& version : versions) {
    if (version != rocpd_known_schema_version)
      throw capture_error(fmt::format(
          "{}: rocpd schema version {} is not one aorta reads (it reads {}); this rocprofv3 is "
          "newer or older than aorta knows: ask it for output_format: csv, or update aorta",
          file.string(), version, rocpd_known_schema_version));
  }
  return versions.front();
}

// What one layout's dispatch rows and agents are read with.
struct layout_queries {
  std::string dispatches;  // per dispatch: kernel_id, agent key, start, end
  std::string agent;       // ?1 = the agent key: id, type, type_index, absolute_index, name, arch
};

// The dispatch table's two published layouts of schema version 3. Only integer columns are read
// per dispatch, with no join on text; names and agents are looked up once per id after (ids are
// the tables' primary keys, so an id has one symbol and one agent).
layout_queries dispatch_queries(rocpd_database& db, const fs::path& file) {
  for (const std::string_view needed :
       {"rocpd_kernel_dispatch", "rocpd_info_kernel_symbol", "rocpd_info_agent"}) {
    if (!db.has_object(needed))
      throw capture_error(fmt::format("{}: rocpd schema version 3 database without {}; the file "
                                      "is incomplete (re-run the capture)",
                                      file.string(), needed));
  }
  const std::vector<std::string> columns = db.columns("rocpd_kernel_dispatch");
  const auto has = [&](std::string_view c) {
    return std::find(columns.begin(), columns.end(), c) != columns.end();
  };
  constexpr std::string_view agent_columns =
      "SELECT A.id, A.type, A.type_index, A.absolute_index, "
      "COALESCE(A.product_name, A.name, ''), COALESCE(A.generic_name, '') ";
  if (has("start") && has("end") && has("agent_id")) {
    return {"SELECT K.kernel_id, K.agent_id, K.start, K.\"end\" FROM rocpd_kernel_dispatch K",
            std::string(agent_columns) + "FROM rocpd_info_agent A WHERE A.id = ?1 LIMIT 1"};
  }
  if (has("start_id") && has("end_id") && has("track_id") && db.has_object("rocpd_timestamp") &&
      db.has_object("rocpd_track")) {
    return {"SELECT K.kernel_id, K.track_id, DS.value, DE.value FROM rocpd_kernel_dispatch K "
            "JOIN rocpd_timestamp DS ON DS.id = K.start_id AND DS.guid = K.guid "
            "JOIN rocpd_timestamp DE ON DE.id = K.end_id AND DE.guid = K.guid",
            std::string(agent_columns) +
                "FROM rocpd_track T JOIN rocpd_info_agent A ON A.id = T.agent_id "
                "WHERE T.id = ?1 LIMIT 1"};
  }
  throw capture_error(fmt::format(
      "{}: rocpd_kernel_dispatch has neither start/end/agent_id nor start_id/end_id/track_id "
      "columns (found: {}); this rocpd layout is not one aorta reads: ask rocprofv3 for "
      "output_format: csv",
      file.string(), fmt::join(columns, ", ")));
}

// One group's agent, as its frame and device need it; nullopt when the agent has no row.
struct agent_row {
  std::string frame;  // "gpu<type_index>" or "cpu<type_index>"
  std::string absolute_index;
  std::string name;
  std::string arch;
};

// Agents by key, with a prepared point query each: a capture has a few, and the sums come
// ordered by agent, so each is asked for once.
class agent_lookup {
public:
  agent_lookup(rocpd_database& db, const std::string& agent_sql)
      : m_db(db), m_agent(db.prepare(agent_sql)) {}

  const std::optional<agent_row>& agent(std::optional<std::int64_t> key) {
    if (m_last && m_last->first == key) return m_last->second;
    std::optional<agent_row> agent;
    sqlite3_stmt* row = m_agent.get();
    sqlite3_reset(row);
    if (key) sqlite3_bind_int64(row, 1, *key);
    if (key && m_db.step(row)) {
      const std::string type = rocpd_database::text(row, 1);
      agent = agent_row{(type == "CPU" ? "cpu" : "gpu") + rocpd_database::text(row, 2),
                        rocpd_database::text(row, 3), rocpd_database::text(row, 4),
                        rocpd_database::text(row, 5)};
    }
    m_last.emplace(key, std::move(agent));
    return m_last->second;
  }

private:
  rocpd_database& m_db;
  rocpd_stmt m_agent;
  std::optional<std::pair<std::optional<std::int64_t>, std::optional<agent_row>>> m_last;
};

// One group (kernel, agent) checked: every dispatch has integer start and end, end >= start, and
// the kernel a name; anything else is an error naming the kernel, since a NULL or text timestamp
// read as 0, or a negative duration, would lower a total a check compares. Returns the tree's
// kernel index; the messages are only composed for a refused group.
std::uint32_t checked_kernel(const dispatch_sum& sum, const dispatch_problems& problems,
                             const frame_tree_builder& tree, const std::string& where) {
  if (!sum.named())
    throw capture_error(fmt::format(
        "{}: rocpd database: {} dispatches have a kernel without a name (kernel id {}: no "
        "rocpd_info_kernel_symbol row, or NULL kernel_name and display_name); they cannot be "
        "told apart from other kernels. Fix: re-run the capture",
        where, sum.launches,
        sum.kernel_null ? std::string("NULL") : std::to_string(sum.kernel_value)));
  const std::uint32_t kernel = sum.tree_kernel;
  const std::string_view name = tree.kernel_name(kernel);
  if (problems.non_integer != 0)
    throw capture_error(fmt::format(
        "{}: rocpd database: kernel '{}': {} dispatches have a start or end that is not an "
        "integer timestamp (NULL, text or real); their durations are unknown. Fix: re-run the "
        "capture",
        where, name, problems.non_integer));
  if (problems.negative != 0)
    throw capture_error(fmt::format("{}: rocpd database: kernel '{}': {} dispatches end before "
                                    "they start; their durations are negative. Fix: re-run the "
                                    "capture",
                                    where, name, problems.negative));
  if (sum.overflowed)
    throw capture_error(fmt::format("{}: rocpd database: kernel '{}': the summed duration is past "
                                    "the largest integer number of ns (2^63-1). Fix: re-run the "
                                    "capture",
                                    where, name));
  if (sum.count_full)
    throw capture_error(fmt::format("{}: rocpd database: kernel '{}': more than {} dispatches on "
                                    "one agent, past the 32-bit count aorta keeps per kernel and "
                                    "agent. Fix: profile a shorter run",
                                    where, name, UINT32_MAX));
  // The checked_sum rule; its field name is composed only for a value it refuses.
  if (sum.total_ns < 0)
    (void)checked_duration(static_cast<double>(sum.total_ns), where,
                           fmt::format("kernel '{}' time (ns)", name));
  return kernel;
}

}  // namespace

void read_rocpd_database(const fs::path& file, frame_tree_builder& tree,
                         std::vector<device_info>& devices, std::vector<std::string>& notes,
                         const rocpd_limits& limits) {
  rocpd_database db(file, limits);
  (void)schema_version(db, file);
  const layout_queries queries = dispatch_queries(db, file);
  rocpd_stmt stmt = db.prepare(queries.dispatches);
  dispatch_sums sums = sum_dispatches(db, stmt.get(), limits.max_groups);
  stmt.reset();
  db.release_cache();
  const std::string where = file.string();
  tree.set_source(where);
  name_dispatched_kernels(db, sums.groups, limits, tree);
  agent_lookup agents(db, queries.agent);
  // A set, not a walk over `devices` per group: 50,000 agents made that quadratic.
  std::unordered_set<std::string> seen_agents;
  for (const device_info& d : devices)
    if (d.type == "HIP") seen_agents.insert(d.id);
  // Sums come by agent, so agents become frames in id order, as when SQLite grouped by name.
  std::optional<std::int64_t> frame_agent;
  std::size_t frame = context_frame::no_parent;
  for (std::size_t i = 0; i < sums.groups.size(); ++i) {
    const dispatch_sum& sum = sums.groups[i];
    const std::uint32_t kernel = checked_kernel(sum, sums.problems_of(sum), tree, where);
    const std::optional<agent_row>& agent = agents.agent(sum.agent_key());
    if (!agent) {
      notes.push_back(fmt::format("{}: kernel '{}': dispatches without an agent row", where,
                                  tree.kernel_name(kernel)));
      frame = context_frame::no_parent;
    } else if (i == 0 || frame_agent != sum.agent_key()) {
      frame = tree.child(context_frame::no_parent, agent->frame);
      if (seen_agents.insert(agent->absolute_index).second) {
        device_info device{"HIP", agent->absolute_index, {}};
        device.properties.emplace("name", agent->name);
        device.properties.emplace("arch", agent->arch);
        devices.push_back(std::move(device));
      }
    }
    frame_agent = sum.agent_key();
    // Exact below 2^53 ns (104 days of GPU time per kernel), as every reader's double total.
    tree.add_kernel(frame, kernel, sum.launches, static_cast<double>(sum.total_ns));
  }
}

}  // namespace aorta::detail
