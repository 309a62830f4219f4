// One output directory, one run: a run holds an flock(2) on <output>/.aorta.lock, which names its
// pid, for as long as it lives. A second run into the same directory is refused instead of
// mixing its files with the first's; a dead owner's lock is released by the kernel, so a crash
// never blocks the next run (the stale file is simply taken over).
#pragma once

#include "process/unique_fd.hpp"

#include <filesystem>

namespace aorta::detail {

// Refuses (usage_error, 64) an output path that cannot be a run's directory: empty, the file
// system root, or an existing path that is not a directory.
void check_output_path(const std::filesystem::path& output_dir);

class output_lock {
public:
  // Creates the directory if needed and takes the lock. Throws setup_error naming the directory
  // and the owner's pid when another live run holds it, or when the lock cannot be created.
  explicit output_lock(const std::filesystem::path& output_dir);

private:
  unique_fd m_file;
};

}  // namespace aorta::detail
