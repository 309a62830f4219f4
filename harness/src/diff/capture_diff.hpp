// `aorta diff A B`: the change between two captures of one profiler, culprit first (issue 43).
// Kernels by time, functions by Ir (inclusive and self), scopes by cycles; the rows that carry the
// change lead, the loader's and libc's frames are folded, as the gate's and the confound tables do.
#pragma once

#include "aorta/capture.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace aorta::detail {

struct diff_row {
  std::string kind;  // "kernel" (ms), "function" (Ir), "scope" (cycles)
  // A kernel's path in the calling-context tree when both captures have one ("main > step >
  // gemm": Proton's scopes and call paths, rocpd's agents); else its name.
  std::string name;
  std::optional<double> a;  // nullopt: not in that capture
  std::optional<double> b;
  std::optional<double> a_self;  // functions: self Ir
  std::optional<double> b_self;
  std::optional<double> share;       // of the family's total change
  std::optional<double> self_share;  // functions
  bool system_frame = false;
};

struct diff_family {
  std::string name;  // "kernel time (ms)", "Ir", "scope cycles"
  double total_a = 0.0;
  double total_b = 0.0;
  bool has_total = false;  // scope cycles nest: no total
};

struct capture_diff {
  std::vector<diff_family> families;
  std::vector<diff_row> rows;  // culprit first
};

[[nodiscard]] capture_diff diff_captures(const capture& a, const capture& b);

// The text tree: one block per family, its total's change, then the rows that moved (every row
// when `all`), loader/libc rows folded into one line, unchanged rows counted.
[[nodiscard]] std::string format_capture_diff(const capture_diff& diff, bool all);

}  // namespace aorta::detail
