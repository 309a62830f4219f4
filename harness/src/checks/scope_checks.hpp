// The scope-addressed forms of count/time_ms/top_kernel (aorta/scope_path.hpp), kept apart from
// the parser and evaluator of the other forms.
#pragma once

#include "aorta/capture.hpp"
#include "aorta/check.hpp"
#include "aorta/scope_path.hpp"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace aorta::detail {

struct scope_argument {
  std::string path;     // inside under(...)
  std::string kernels;  // the kernel regex after the comma; "" = every kernel
};

// "under(PATH)" or "under(PATH), REGEX"; nullopt when `argument` does not start with "under(".
// Throws std::invalid_argument for an unclosed under( or text after it that is not ", REGEX".
[[nodiscard]] std::optional<scope_argument> split_scope_argument(std::string_view argument);

struct scoped_measure {
  std::optional<double> value;
  std::string reason;  // why there is no value, or a remark on a value of 0
  bool nothing_matched = false;                 // the value is 0 because no kernel matched
  std::vector<std::string> kernels_there = {};  // then, the kernels the subtree holds
};

// count or time_ms of the kernels matching `kernels` in the subtree `path` selects, from the
// first capture that records placements.
[[nodiscard]] scoped_measure scoped_kernel_quantity(const std::vector<capture>& captures,
                                                    check_quantity quantity,
                                                    const scope_path& path,
                                                    const name_regex& kernels);

struct scoped_top {
  std::optional<std::string> name;  // the hottest kernel of the subtree
  std::string reason;
};
[[nodiscard]] scoped_top scoped_top_kernel(const std::vector<capture>& captures,
                                           const scope_path& path);

// The distinct names of `source`'s scopes (`kernel/scope`, or `scope` under no kernel) in first-seen
// order: the first `listed` of them and how many there are.
struct scope_names {
  std::vector<std::string> first;
  std::size_t total = 0;
};
[[nodiscard]] scope_names known_scope_names(const capture& source, std::size_t listed);

}  // namespace aorta::detail
