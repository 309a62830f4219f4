#include "captures/capture_format.hpp"

#include "bounded_input.hpp"

#include <string>

namespace aorta::detail {

bool looks_like_chrome_trace(const std::filesystem::path& file) {
  constexpr std::size_t sniff_bytes = 8192;
  std::string head(sniff_bytes, '\0');
  std::size_t have = 0;
  // Through the bounded input layer: a FIFO or device given by name is no trace (and is never
  // opened for a blocking read).
  try {
    input_file in = open_input_file(file);
    while (have < head.size()) {
      const std::size_t got = in.read_some(head.data() + have, head.size() - have);
      if (got == 0) break;
      have += got;
    }
  } catch (const input_error&) {
    return false;
  }
  head.resize(have);
  const auto first = head.find_first_not_of(" \t\r\n");
  if (first == std::string::npos || (head[first] != '{' && head[first] != '[')) return false;
  return head.find("\"traceEvents\"") != std::string::npos;
}

}  // namespace aorta::detail
