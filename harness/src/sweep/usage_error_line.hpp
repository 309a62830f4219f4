// A usage error of the command itself also exits 2, the usual "cannot run here" code: Python's
// missing script, argparse (Proton's CLI or a payload that did not move its usage errors to 64).
// Such a run is the test's own mistake and must fail, never skip.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace aorta::detail {

// The first line of `output` that shows such a usage error, or nullopt. One linear pass: the
// output is the payload's, of any length and any line length.
[[nodiscard]] std::optional<std::string> usage_error_line(std::string_view output);

}  // namespace aorta::detail
