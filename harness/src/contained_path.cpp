#include "contained_path.hpp"

#include "aorta/error.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <string>

namespace aorta::detail {
namespace {

// Why `name` would not stay inside its parent, or empty when it does.
std::string_view escape_reason(std::string_view name, path_nesting nesting) {
  if (name.empty()) return "it is empty";
  if (name.find('\0') != std::string_view::npos) return "it holds a NUL byte";
  if (name.front() == '/') return "it is an absolute path";
  if (nesting == path_nesting::one_component && name.find('/') != std::string_view::npos) {
    return "it holds a '/', and it must be one name";
  }
  std::size_t start = 0;
  while (start <= name.size()) {
    const std::size_t end = std::min(name.find('/', start), name.size());
    const std::string_view component = name.substr(start, end - start);
    if (component == "..") return "it has a '..' component, which leaves the directory";
    if (component == ".") return "it has a '.' component";
    if (component.empty()) return "it has an empty component ('//' or a trailing '/')";
    start = end + 1;
  }
  return {};
}

}  // namespace

std::filesystem::path contained_path(const std::filesystem::path& parent, std::string_view name,
                                     std::string_view what, path_nesting nesting) {
  if (const auto reason = escape_reason(name, nesting); !reason.empty()) {
    throw usage_error(fmt::format(
        "{} '{}' cannot become a path inside {}: {}. Fix: use a plain name (letters, digits, "
        "'_', '-', '.'{})",
        what, name, parent.string(), reason,
        nesting == path_nesting::subdirectories ? "; '/' only between such names" : ""));
  }
  return parent / std::filesystem::path(std::string(name));
}

}  // namespace aorta::detail
