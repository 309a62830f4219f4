// Where in the calling-context tree the kernel that leads a cell's change ran (issue 43): the
// summary sentence says "in prefill > gemm", not just "in gemm", when the cell's capture has a
// tree (Proton's scopes and call paths, rocpd's agents). Result records keep kernels by name only,
// so the place is read from the cell's last measured trial's capture, after the verdicts.
#pragma once

#include "aorta/capture.hpp"
#include "cells/matrix_report.hpp"

#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace aorta::detail {

struct kernel_place {
  std::string path;        // "prefill > step": frames above the kernel, outermost first
  std::size_t places = 0;  // how many places in the tree the kernel ran at
};

// The frames above the kernel's heaviest placement; nullopt when the capture places it nowhere
// or only at the root.
[[nodiscard]] std::optional<kernel_place> place_of_kernel(const capture& source,
                                                          std::string_view kernel);

// `sentence` with its first " in KERNEL" as " in PATH > KERNEL" (and "(its heaviest of N places)"
// after it when the kernel ran at several); unchanged when the sentence does not name the kernel.
[[nodiscard]] std::string sentence_with_place(std::string sentence, std::string_view kernel,
                                              const kernel_place& place);

// For each judged cell whose leading row is a kernel's time: reads that cell's last measured
// trial under `output_dir` and names the kernel's place in its sentence. A capture without a
// tree, or one that cannot be read again, leaves the sentence as it was (the verdict never rests
// on it).
void place_leading_kernels(const std::filesystem::path& output_dir, matrix_run& run);

}  // namespace aorta::detail
