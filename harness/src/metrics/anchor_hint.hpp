// The hint of a function pattern that matches several functions: one anchored pattern that
// matches exactly the function the user most likely meant.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace aorta::detail {

// `text` with RE2's metacharacters escaped, so `(below main) [x.c in y]` matches itself.
[[nodiscard]] std::string regex_literal(std::string_view text);

// ", e.g. ir(^main$)" naming the likeliest of `matches`: the one spelt exactly like `argument`,
// else the program's own function before the loader's and libc's (`main`, not `dl_main`), else
// the first. The pattern is escaped and checked against `all_names` to match that function alone;
// "" when no such pattern exists.
[[nodiscard]] std::string anchor_hint(std::string_view quantity, std::string_view argument,
                                      const std::vector<std::string>& matches,
                                      const std::vector<std::string>& all_names);

}  // namespace aorta::detail
