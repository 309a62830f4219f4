// A result.json's text read into a trial_record without a DOM of its largest parts: the top-level
// `metrics` and `kernels` are converted member by member as they are parsed (aorta report reads
// one result.json per trial; a DOM of 200,000 metrics or 80,000 kernel rows cost ~10x the text).
#pragma once

#include "aorta/trial_record.hpp"

#include <string_view>

namespace aorta::detail {

// trial_record_from_json(parse_json(text)), with the same record and the same errors: throws
// json_input_error when the text is not JSON within max_json_depth and max_json_values, and
// aorta::error naming the key as trial_record_from_json does.
[[nodiscard]] trial_record trial_record_from_text(std::string_view text);

}  // namespace aorta::detail
