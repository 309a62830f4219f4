// Reads valgrind callgrind output files into the neutral capture (functions, not kernels).
#pragma once

#include "aorta/capture.hpp"

#include <filesystem>

namespace aorta {

// `dir_or_file`: one callgrind output file, or a directory whose `callgrind.out*` files
// (recursively; one per pid or thread) are all read and summed per function name. For each
// function: self Ir (its own cost lines), calls (the `calls=` counts naming it, from every call
// site) and inclusive Ir (self plus the inclusive cost of each call it makes, from `calls=` and
// the cost line after it; calls of a function to itself are not added again). Names are kept as
// written, C++ argument lists included. capture.functions is sorted by inclusive Ir, descending.
// Throws capture_error when a file cannot be read, has no Ir event, uses an undefined compressed
// name, has a malformed cost or call line, or a sum passes detail::max_count.
[[nodiscard]] capture read_callgrind_capture(const std::filesystem::path& dir_or_file);

}  // namespace aorta
