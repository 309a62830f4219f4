// Reads valgrind callgrind output files into the neutral capture (functions, not kernels).
#pragma once

#include "aorta/capture.hpp"

#include <cstddef>
#include <filesystem>

namespace aorta {

namespace detail {

// Most distinct functions (object, file, name) one capture sums, and most compressed names one
// file may define per kind (fn/cfn, fl/fi/fe/cfi/cfl, ob/cob): a large program's profile holds
// tens of thousands; each entry costs a few hundred bytes, so millions would be a damaged or
// hostile file growing memory. Call sites need no bound: calls are summed into their callee.
inline constexpr std::size_t max_callgrind_functions = 1'000'000;
// Longest callgrind line read (its '\n' not counted). A line holds one name at most (`fn=(id)
// name`), and a long C++ name is a few KiB; 4 MiB is four kernel names of
// max_kernel_name_bytes. Past it an error naming the line, read in chunks, so a line of any
// length never takes more memory than this.
inline constexpr std::size_t callgrind_max_line_bytes = std::size_t{4} << 20;

}  // namespace detail

// `dir_or_file`: one callgrind output file, or a directory whose `callgrind.out*` files
// (recursively; one per pid or thread) are all read and summed per function name. For each
// function: self Ir (its own cost lines), calls (the `calls=` counts naming it, from every call
// site) and inclusive Ir (self plus the inclusive cost of each call it makes, from `calls=` and
// the cost line after it; calls of a function to itself are not added again). Names are kept as
// written, C++ argument lists included. capture.functions is sorted by inclusive Ir, descending.
// Throws capture_error when a file cannot be read, has no Ir event, uses an undefined compressed
// name, has a malformed cost or call line, a sum passes detail::max_count, it holds more than
// detail::max_callgrind_functions functions or names of one kind, or a line longer than
// detail::callgrind_max_line_bytes.
[[nodiscard]] capture read_callgrind_capture(const std::filesystem::path& dir_or_file);

}  // namespace aorta
