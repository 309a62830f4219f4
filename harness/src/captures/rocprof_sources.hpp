// The pieces of the rocprofv3 reader, one per kind of file rocprofv3 writes.
#pragma once

#include "aorta/capture.hpp"
#include "captures/csv_kernel_table.hpp"
#include "captures/csv_parts.hpp"

#include <filesystem>
#include <string>
#include <vector>

namespace aorta::detail {

// Each reader adds what `file` holds to `table` and explains what it skipped in `notes`. True
// when the file gave at least one kernel row.
bool read_rocprof_kernel_stats(const std::filesystem::path& file, kernel_table& table,
                               std::vector<std::string>& notes);
bool read_rocprof_kernel_trace(const std::filesystem::path& file, kernel_table& table,
                               std::vector<std::string>& notes);
// The same, a large trace read in parts on several threads (csv_parts.hpp) as `parts` allows.
bool read_rocprof_kernel_trace(const std::filesystem::path& file, kernel_table& table,
                               std::vector<std::string>& notes, const csv_parts_options& parts);
bool read_rocprof_results_json(const std::filesystem::path& file, kernel_table& table,
                               std::vector<std::string>& notes);

// GPU agents of an agent_info.csv, in file order.
std::vector<device_info> read_rocprof_agent_info(const std::filesystem::path& file,
                                                 std::vector<std::string>& notes);

}  // namespace aorta::detail
