// "Did you mean": the names a misspelt selector most likely meant, for a check whose kernel,
// function, benchmark or scope regex matches nothing.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace aorta::detail {

// The name a user would type: anchors and escapes removed, cut to its first 200 characters
// (template names run to thousands; a typo is judged on the start), then without a C++ argument
// list (a '(' after the first character).
[[nodiscard]] std::string spelling_of(std::string_view text);

// Up to `count` of `names` fewest edits from `argument`, nearest first. The program's own names
// come before runtime and loader frames (`main` before `dl_main`) at any distance, since a user
// selects their own code; ties go to the alphabetically first name. Each name at most once.
[[nodiscard]] std::vector<std::string> closest_names(const std::vector<std::string>& names,
                                                     std::string_view argument,
                                                     std::size_t count = 3);

// "; did you mean: a, b, c" for the closest names, or "; there is no name to suggest" when
// `names` is empty.
[[nodiscard]] std::string closest_names_text(const std::vector<std::string>& names,
                                             std::string_view argument);

}  // namespace aorta::detail
