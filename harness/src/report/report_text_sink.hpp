// Where perf.md and report.html are written as they are rendered: appended text goes to the file in
// chunks of ~64 KiB, so a report of 200,000 metrics never holds its 40 MB page as one string
// (with the string's doubling, 100 MB at the end).
#pragma once

#include <cstddef>
#include <ostream>
#include <string>
#include <string_view>

namespace aorta::detail {

class text_sink {
public:
  explicit text_sink(std::ostream& out) : m_out(out) { m_buffer.reserve(chunk_bytes + 4096); }
  text_sink(const text_sink&) = delete;
  text_sink& operator=(const text_sink&) = delete;
  ~text_sink() = default;  // flush() before: a destructor cannot report a failed write

  text_sink& operator+=(std::string_view text) {
    m_buffer += text;
    if (m_buffer.size() >= chunk_bytes) flush();
    return *this;
  }
  text_sink& operator+=(char c) {
    m_buffer += c;
    return *this;
  }
  void flush() {
    m_out.write(m_buffer.data(), static_cast<std::streamsize>(m_buffer.size()));
    m_buffer.clear();
  }

private:
  static constexpr std::size_t chunk_bytes = std::size_t{1} << 16;
  std::ostream& m_out;
  std::string m_buffer;
};

}  // namespace aorta::detail
