// The files a cells run leaves in its output directory between its start and its verdicts, so
// that `aorta report` never shows one run's verdicts over another run's trials.
#pragma once

#include "cells/matrix_report.hpp"
#include "recipe/cell_plan.hpp"

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace aorta::detail {

// The run so far, marked incomplete for `why`: its trials, no checks, no confound verdicts.
[[nodiscard]] matrix_run incomplete_run(const std::vector<cell_plan>& cells,
                                        const std::vector<cell_trials>& by_cell,
                                        const std::vector<std::string>& base_command,
                                        std::uint64_t seed, const std::string& why);

// A re-run into the same directory replaces the previous run: its cells' trials go first, and
// matrix.json / matrix.md marked incomplete stand in until this run's verdicts replace them, so
// a run that is interrupted or killed never leaves the previous run's verdicts behind.
void forget_previous_run(const std::filesystem::path& output_dir,
                         const std::vector<cell_plan>& cells,
                         const std::vector<std::string>& base_command, std::uint64_t seed);

}  // namespace aorta::detail
