// Nesting the requested collectors' wraps around a command, innermost first, so each wrap sees the
// plan of everything inside it. One process and every rank use it alike; they differ only in
// where each collector writes.
#pragma once

#include "aorta/collector.hpp"

#include <filesystem>
#include <functional>
#include <string>
#include <vector>

namespace aorta::detail {

// The directory a collector writes into: trial_dir / name for one process, a rank's directory
// for ranks.
using collector_output_dir = std::function<std::filesystem::path(const collector_base&)>;

// Wraps `inner` with every attaching collector in `requested`, in the registry's wrap order
// (outermost first). `wrapped`, when given, receives the names that wrapped, outermost first.
[[nodiscard]] launch_plan nest_wraps(const std::vector<collector_request>& requested,
                                     launch_plan inner, const collector_output_dir& output_dir,
                                     const plan_context& context,
                                     std::vector<std::string>* wrapped = nullptr);

}  // namespace aorta::detail
