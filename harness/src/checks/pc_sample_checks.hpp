// The PC-sample forms of a check: samples(KERNEL[, LINE]) and stalls(KERNEL, REASON[, LINE]),
// summed from a capture's pc_samples (aorta/capture.hpp). Each part is a regex searched in the
// kernel name, the normalised location ("matmul.py:63") or the stall reason ("long_scoreboard").
#pragma once

#include "aorta/capture.hpp"
#include "aorta/check.hpp"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace aorta::detail {

struct pc_sample_argument {
  std::string_view kernel;
  std::string_view reason;  // empty for samples()
  std::string_view line;    // empty: every line of the kernel
};

// Splits at the commas outside (), [] and {} and not escaped, so a regex keeps `{1,3}` and
// `[,;]`. Throws std::invalid_argument naming what is wrong: a blank part, or a count of parts
// other than 1-2 for samples() and 2-3 for stalls().
[[nodiscard]] pc_sample_argument split_pc_sample_argument(check_quantity quantity,
                                                          std::string_view argument);

// The same split with every part compiled; throws std::invalid_argument saying what to write.
void require_pc_sample_argument(check_quantity quantity, std::string_view argument);

struct pc_sample_measure {
  std::optional<double> value;
  std::string reason;  // why there is no value, or a remark on one ("sum over 3 lines")
  // The value is 0 because a selector matched nothing; `names_there` then holds what it could
  // have matched and `wanted` the selector, for "did you mean".
  bool nothing_matched = false;
  std::vector<std::string> names_there = {};
  std::string wanted = {};
};

// samples() or stalls() (`quantity`) of `argument` over the first capture that has PC samples.
// No such capture is no value, whatever `?` says: the `?` opt-in covers a selector that matches
// nothing, not a run that did not sample. Sums are exact in uint64 and refused on overflow.
[[nodiscard]] pc_sample_measure pc_sample_quantity(const std::vector<capture>& captures,
                                                   check_quantity quantity,
                                                   std::string_view argument);

// The five lines with the most samples and their top stall reason, for a failed check.
[[nodiscard]] std::string pc_sample_context(const capture& source);

}  // namespace aorta::detail
