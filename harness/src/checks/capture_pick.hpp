// Which of a trial's captures a check reads: the first, in the order the collectors are listed,
// that has the kind of data the check needs.
#pragma once

#include "aorta/capture.hpp"

#include <vector>

namespace aorta::detail {

enum class data_kind { kernels, scopes, functions, findings };

inline const capture* first_with(const std::vector<capture>& captures, data_kind kind) {
  for (const auto& candidate : captures) {
    const bool has = kind == data_kind::kernels    ? !candidate.kernels.empty()
                     : kind == data_kind::scopes   ? !candidate.scopes.empty()
                     : kind == data_kind::findings ? candidate.reported_errors.has_value()
                                                   : !candidate.functions.empty();
    if (has) return &candidate;
  }
  return nullptr;
}

}  // namespace aorta::detail
