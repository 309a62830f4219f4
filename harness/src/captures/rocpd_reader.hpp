// rocprofv3's rocpd output (`--output-format rocpd`, the default on ROCm 7): a SQLite database,
// schema of rocprofiler-sdk's source/share/rocprofiler-sdk-rocpd/rocpd_tables.sql (schema_version
// 3, in both published layouts: dispatch rows with start/end/agent_id columns, or with
// start_id/end_id into rocpd_timestamp and track_id into rocpd_track).
#pragma once

#include "aorta/capture.hpp"
#include "captures/frame_tree.hpp"

#include <filesystem>
#include <string>
#include <vector>

namespace aorta::detail {

// The schema versions this reader knows.
inline constexpr std::string_view rocpd_known_schema_version = "3";

// Adds the kernel dispatches of one database, summed per kernel name and agent in SQL (memory is
// one row per name and agent, not per dispatch), under one frame per agent ("gpu<type_index>").
// Devices go to `devices`. Opens the file read-only; throws capture_error naming the file for an
// unknown schema version, a locked, corrupt or non-SQLite file, or a database without the tables.
void read_rocpd_database(const std::filesystem::path& file, frame_tree_builder& tree,
                         std::vector<device_info>& devices, std::vector<std::string>& notes);

}  // namespace aorta::detail
