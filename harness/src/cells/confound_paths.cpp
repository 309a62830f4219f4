#include "cells/confound_paths.hpp"

#include "diff/diff_capture_reading.hpp"
#include "diff/frame_path.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <vector>

namespace aorta::detail {
namespace {

std::string frames_text(const capture& source, std::size_t frame) {
  return fmt::format("{}", fmt::join(frames_above(source, frame), " > "));
}

const confound_row* leading_row(const matrix_run& run, const cell_change& change) {
  for (const auto& row : run.rows) {
    if (row.cell == change.cell && row.reference == change.reference && !row.system_frame) {
      return &row;
    }
  }
  return nullptr;
}

// "time_ms(gemm)" -> "gemm"; empty for any other row.
std::string_view timed_kernel(const confound_row& row) {
  const std::string_view quantity = row.quantity;
  constexpr std::string_view prefix = "time_ms(";
  if (!quantity.starts_with(prefix) || !quantity.ends_with(')')) return {};
  return quantity.substr(prefix.size(), quantity.size() - prefix.size() - 1);
}

std::optional<kernel_place> place_in_last_trial(const std::filesystem::path& output_dir,
                                                const matrix_run& run, const std::string& cell,
                                                std::string_view kernel) {
  const auto found = std::find_if(run.cells.begin(), run.cells.end(),
                                  [&](const cell_plan& plan) { return plan.name == cell; });
  if (found == run.cells.end()) return std::nullopt;
  const auto& trials = run.trials[static_cast<std::size_t>(found - run.cells.begin())];
  for (std::size_t round = trials.size(); round-- > 0;) {
    if (!trials[round]) continue;
    const auto& kernels = trials[round]->metrics.kernels;
    const auto row = std::find_if(kernels.begin(), kernels.end(),
                                  [&](const auto& k) { return k.name.str() == kernel; });
    if (row == kernels.end()) continue;
    const auto dir = output_dir / cell / fmt::format("trial_{}", round);
    return place_of_kernel(read_capture_as(dir.string(), row->collector), kernel);
  }
  return std::nullopt;
}

}  // namespace

std::optional<kernel_place> place_of_kernel(const capture& source, std::string_view kernel) {
  const placed_kernel* heaviest = nullptr;
  std::size_t places = 0;
  for (const auto& placed : source.placements) {
    if (placed.kernel.name.str() != kernel) continue;
    ++places;
    if (heaviest == nullptr || placed.kernel.total_ns > heaviest->kernel.total_ns) {
      heaviest = &placed;
    }
  }
  if (heaviest == nullptr) return std::nullopt;
  std::string path = frames_text(source, heaviest->frame);
  if (path.empty()) return std::nullopt;
  return kernel_place{std::move(path), places};
}

std::string sentence_with_place(std::string sentence, std::string_view kernel,
                                const kernel_place& place) {
  const std::string named = fmt::format(" in {}", kernel);
  const std::size_t at = sentence.find(named);
  if (at == std::string::npos) return sentence;
  std::string replacement = fmt::format(" in {} > {}", place.path, kernel);
  if (place.places > 1) {
    replacement += fmt::format(" (its heaviest of {} places)", place.places);
  }
  sentence.replace(at, named.size(), replacement);
  return sentence;
}

void place_leading_kernels(const std::filesystem::path& output_dir, matrix_run& run) {
  for (auto& change : run.changes) {
    const confound_row* lead = leading_row(run, change);
    if (lead == nullptr || lead->verdict == confound_verdict::same) continue;
    const std::string_view kernel = timed_kernel(*lead);
    if (kernel.empty()) continue;
    try {
      if (const auto place = place_in_last_trial(output_dir, run, change.cell, kernel)) {
        change.sentence = sentence_with_place(std::move(change.sentence), kernel, *place);
      }
    } catch (const std::exception&) {
      // Read once already for the verdicts; a capture gone or changed since only costs the path.
    }
  }
}

}  // namespace aorta::detail
