// One timestamp format for every record aorta writes (result.json, the aggregate reports).
#pragma once

#include <string>

namespace aorta::detail {

// Now, as ISO 8601 in UTC to the second: "2026-11-30T00:58:12Z".
[[nodiscard]] std::string utc_timestamp();

}  // namespace aorta::detail
