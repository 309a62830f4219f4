// How the sanitizer collector wraps a command with NVIDIA compute-sanitizer, as pure functions of
// the typed options.
#pragma once

#include "aorta/launch_plan.hpp"
#include "collectors/sanitizer/sanitizer_options.hpp"

#include <filesystem>
#include <string>
#include <vector>

namespace aorta {

// The text report compute-sanitizer writes (`--log-file`), inside the collector's directory.
inline constexpr const char* sanitizer_log_file_name = "sanitizer.log";

// `<binary> --tool <tool> --error-exitcode 0 --target-processes <tp> [--leak-check full|no]
//  [--padding N] --log-file <out>/sanitizer.log`: the prefix put in front of the command
// (compute-sanitizer takes the application as its first non-option argument).
//
// Why the text log and not `--xml --save`: we found no statement in NVIDIA's Compute Sanitizer
// documentation that calls either format stable (searched: its manual and the 2025.3.1 --help,
// tests/fixtures/sanitizer/h200/compute-sanitizer-help.txt), and neither carries a format version
// (2025.3.1 writes a bare <ComputeSanitizerOutput> root). Only the text log ends with the tool's
// totals (`ERROR SUMMARY: N errors`, `RACECHECK SUMMARY: ...`), which is how the reader tells a
// finished report with 0 errors from a truncated one, and what counts the errors the tool stopped
// printing (`--print-limit`). docs/collectors.md (sanitizer).
//
// Why `--error-exitcode 0`: by default compute-sanitizer exits with the payload's status, and a
// kernel that memcheck stops makes the payload's next CUDA call fail, so a planted error would
// read as "payload exited 1". With 0 the run ends like a clean one and the checks judge it
// (`sanitizer_error_count == 0` fails naming the kernel and the access). When no error is found
// the payload's own exit status still comes through.
[[nodiscard]] std::vector<std::string> sanitizer_argv(const sanitizer_options& options,
                                                      const std::filesystem::path& output_dir,
                                                      const std::string& sanitizer_binary);

// Where the CUDA toolkit installs compute-sanitizer when it is not on PATH, under `root`:
// <root>/usr/local/cuda/bin/compute-sanitizer, then <root>/usr/local/cuda/compute-sanitizer/.
// Only candidates that exist as executable files are listed.
[[nodiscard]] std::vector<std::filesystem::path>
sanitizer_standard_locations(const std::filesystem::path& root = "/");

// `$COMPUTE_SANITIZER_BIN` (a path or a name on PATH), else `compute-sanitizer` on env's PATH,
// else the first of `standard_locations`. Throws skip_error naming the variable and the fix.
[[nodiscard]] std::string resolve_sanitizer_binary(
    const env_map& env, const std::vector<std::filesystem::path>& standard_locations =
                            sanitizer_standard_locations());

}  // namespace aorta
