// The trial directory: created fresh before each trial, so a rerun never reports the numbers of a
// previous attempt and the tree looks the same with or without GPU work.
#pragma once

#include "aorta/launch_plan.hpp"
#include "aorta/trial_record.hpp"

#include <filesystem>
#include <string>
#include <vector>

namespace aorta::detail {

// Removes and recreates `trial_dir` and one empty subdirectory per collector. Refuses (setup_error)
// when a path in the way is a symlink, a file, or not writable, naming the path and the fix.
void prepare_trial_dir(const std::filesystem::path& trial_dir,
                       const std::vector<std::string>& collector_dirs);

// command.json: the argv that runs and the environment changes, before anything is launched;
// written atomically, stamped schemas::command.
void write_command_record(const std::filesystem::path& file,
                          const std::vector<std::string>& command, const launch_plan& plan);

// `<dir>/result.json`: the one writer of a sweep's records, each trial's when it ends or cannot
// start and a refused run's in the output directory, so a record has one way onto disk.
void write_trial_result(const std::filesystem::path& dir, const trial_record& record);

}  // namespace aorta::detail
