#include "sweep/cell_run_files.hpp"

#include "sweep/sweep_steps.hpp"

#include <algorithm>
#include <system_error>

namespace aorta::detail {

matrix_run incomplete_run(const std::vector<cell_plan>& cells,
                          const std::vector<cell_trials>& by_cell,
                          const std::vector<std::string>& base_command, std::uint64_t seed,
                          const std::string& why) {
  matrix_run run;
  run.cells = cells;
  for (const auto& cell : cells) run.rounds = std::max(run.rounds, cell.trials);
  run.trials = by_cell;
  run.trials.resize(cells.size());
  run.base_command = base_command;
  run.seed = seed;
  run.incomplete = why;
  return run;
}

void forget_previous_run(const std::filesystem::path& output_dir,
                         const std::vector<cell_plan>& cells,
                         const std::vector<std::string>& base_command, std::uint64_t seed) {
  for (const auto& cell : cells) remove_stale_trials(output_dir / cell.name, 0);
  std::error_code ignored;
  std::filesystem::create_directories(output_dir, ignored);
  write_matrix_reports(output_dir,
                       incomplete_run(cells, {}, base_command, seed,
                                      "the run is in progress, or was killed before it ended"));
}

}  // namespace aorta::detail
