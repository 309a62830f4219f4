// rocprofv3's rocpd output (`--output-format rocpd`, the default on ROCm 7): a SQLite database,
// schema of rocprofiler-sdk's source/share/rocprofiler-sdk-rocpd/rocpd_tables.sql (schema_version
// 3, in both published layouts: dispatch rows with start/end/agent_id columns, or with
// start_id/end_id into rocpd_timestamp and track_id into rocpd_track).
#pragma once

#include "aorta/capture.hpp"
#include "captures/frame_tree.hpp"

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace aorta::detail {

// The schema versions this reader knows.
inline constexpr std::string_view rocpd_known_schema_version = "3";

// Bounds on one rocpd read (docs/guards.md): a database is input, and its views can be endless
// recursive queries. Past a bound the read is a capture_error naming the file and the bound.
struct rocpd_limits {
  std::uint64_t max_steps = 2'000'000'000;  // SQLite virtual-machine steps (max_vm_steps)
  std::chrono::seconds max_time{60};        // wall time (max_time)
  std::uint64_t max_heap_bytes = std::uint64_t{1} << 30;  // SQLite's memory (max_heap_bytes)
  // Distinct (kernel id, agent) pairs summed, and rows read from the kernel symbol table (one per
  // kernel and agent) (rocpd_max_groups): far above kernels times agents of any real capture;
  // past it an error, not a table that grows, or a read that runs, until a budget ends it.
  std::size_t max_groups = 4'000'000;
  // Bytes of the dispatched kernels' names kept (rocpd_max_name_bytes): a capture's names total
  // a few MB; past it an error, not a string that grows with a hostile symbol table.
  std::uint64_t max_name_bytes = std::uint64_t{256} << 20;
};
inline constexpr std::uint64_t rocpd_progress_steps = 10'000;

// The progress handler's state (internal).
struct rocpd_budget_state {
  rocpd_limits limits;
  std::chrono::steady_clock::time_point started;
  std::uint64_t steps = 0;
  const char* exceeded = nullptr;
  // SIGINT/SIGTERM/SIGHUP caught since the command began (interrupt_in_this_command) stops the
  // read within rocpd_progress_steps steps, where the budget alone would wait max_time.
  int interrupted_by = 0;
};

// Adds the kernel dispatches of one database, summed per integer kernel id and agent id in one
// scan (memory is one group, not one row per dispatch; names come from one scan of the symbols
// after, agents once each; docs/collectors.md shows the query plans), under one frame per agent
// ("gpu<type_index>") when `tree` keeps frames.
// Devices go to `devices`. Opens the file read-only; throws capture_error naming the file for an
// unknown schema version, a locked, corrupt or non-SQLite file, or a database without the tables.
// Dispatches are checked (checked_sum.hpp): a NULL kernel name, a NULL, text or real
// timestamp, an end before its start and an overflowing sum are capture errors naming the kernel.
// SQLite runs under `limits`, with temporary storage in memory.
void read_rocpd_database(const std::filesystem::path& file, frame_tree_builder& tree,
                         std::vector<device_info>& devices, std::vector<std::string>& notes,
                         const rocpd_limits& limits = {});

}  // namespace aorta::detail
