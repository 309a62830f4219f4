#include "sweep/usage_error_line.hpp"

#include <array>

namespace aorta::detail {
namespace {

// What Python prints for a missing script and argparse for a bad command line.
constexpr std::array<std::string_view, 4> usage_markers{
    "can't open file '",
    ": error: argument ",
    ": error: unrecognized arguments",
    ": error: the following arguments are required",
};

bool shows_usage_error(std::string_view line) {
  for (const std::string_view marker : usage_markers) {
    if (line.find(marker) != std::string_view::npos) return true;
  }
  return false;
}

}  // namespace

std::optional<std::string> usage_error_line(std::string_view output) {
  std::size_t start = 0;
  while (start <= output.size()) {
    const std::size_t newline = output.find('\n', start);
    const std::size_t stop = newline == std::string_view::npos ? output.size() : newline;
    const std::string_view line = output.substr(start, stop - start);
    if (shows_usage_error(line)) return std::string(line);
    if (newline == std::string_view::npos) break;
    start = newline + 1;
  }
  return std::nullopt;
}

}  // namespace aorta::detail
