#include "aorta/error.hpp"

#include <fmt/format.h>

namespace aorta {

std::string source_location::to_string() const {
  if (file.empty() && line == 0) return {};
  if (line == 0) return file;
  if (column == 0) return fmt::format("{}:{}", file, line);
  return fmt::format("{}:{}:{}", file, line, column);
}

}  // namespace aorta
