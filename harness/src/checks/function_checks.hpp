// The callgrind forms of a check: ir(), self_ir() and calls() of the functions a regex picks.
#pragma once

#include "aorta/capture.hpp"
#include "aorta/check.hpp"
#include "aorta/name_regex.hpp"

#include <optional>
#include <string>

namespace aorta::detail {

struct function_measure {
  std::optional<double> value;
  std::string reason;  // why there is no value; with a value, an optional remark
};

// ir/self_ir/calls of the functions of `source` that `pattern` (written as `argument`) matches.
// ir() must pick one function: a caller's inclusive Ir holds its callees', so a sum would count
// them twice. self_ir() and calls() must too when `argument` is a plain name; written with regex
// syntax they sum every match (exclusive costs and call counts never overlap). No match is no
// value naming the closest functions (a misspelt name must not pass `ir(x) < N`), or 0 when the
// term was written `F(A)?` (`absent_reads_zero`).
[[nodiscard]] function_measure function_quantity(const capture& source, check_quantity quantity,
                                                 const std::string& argument,
                                                 const name_regex& pattern, bool absent_reads_zero);

// The five functions with the most inclusive Ir, with their self Ir and calls, for a failed check.
[[nodiscard]] std::string function_context(const capture& source);

}  // namespace aorta::detail
