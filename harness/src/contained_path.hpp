// Names that become paths (a baseline's --test-name, rank-exec's collectors, a report's cell
// names): one rule, so no such name can write outside the directory it is meant for.
#pragma once

#include <filesystem>
#include <string_view>

namespace aorta::detail {

enum class path_nesting {
  one_component,  // a file or directory name: no '/' at all
  subdirectories, // 'a/b' is allowed, as long as every component is a plain name
};

// `parent / name`, where `name` must be a relative path that stays inside `parent`: not empty,
// not absolute, no `..` or `.` component, no empty component (`a//b`), no NUL byte, and no '/'
// at all under path_nesting::one_component. `what` ("--test-name", "rank-exec --collectors")
// names the source in the message. Throws usage_error naming `what`, the name and the fix.
// Lexical only: a symlink already inside `parent` is the business of whoever opens the path.
[[nodiscard]] std::filesystem::path contained_path(const std::filesystem::path& parent,
                                                   std::string_view name, std::string_view what,
                                                   path_nesting nesting = path_nesting::one_component);

}  // namespace aorta::detail
