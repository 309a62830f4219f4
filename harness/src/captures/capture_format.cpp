#include "captures/capture_format.hpp"

#include <algorithm>
#include <fstream>
#include <string>

namespace aorta::detail {

bool looks_like_chrome_trace(const std::filesystem::path& file) {
  constexpr std::size_t sniff_bytes = 8192;
  std::ifstream in(file, std::ios::binary);
  std::string head(sniff_bytes, '\0');
  in.read(head.data(), static_cast<std::streamsize>(head.size()));
  head.resize(static_cast<std::size_t>(std::max<std::streamsize>(in.gcount(), 0)));
  const auto first = head.find_first_not_of(" \t\r\n");
  if (first == std::string::npos || (head[first] != '{' && head[first] != '[')) return false;
  return head.find("\"traceEvents\"") != std::string::npos;
}

}  // namespace aorta::detail
