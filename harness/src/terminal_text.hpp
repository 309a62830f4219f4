// Text from inputs (kernel names, paths, a payload's last line, bytes of a damaged file quoted in
// an error) reaches the terminal only through here, so a NUL or an ANSI escape sequence in a
// capture cannot blank, recolour or rewrite the user's terminal.
#pragma once

#include <ostream>
#include <streambuf>
#include <string>
#include <string_view>

namespace aorta::detail {

// `text` with every control byte except newline and tab (C0 and DEL, ESC included) written as
// \xHH. Printable bytes, UTF-8 included, pass unchanged.
[[nodiscard]] std::string terminal_safe(std::string_view text);

// A stream buffer that passes everything written to it through terminal_safe into `target`.
class terminal_safe_buffer : public std::streambuf {
public:
  explicit terminal_safe_buffer(std::streambuf* target) : m_target(target) {}

protected:
  int_type overflow(int_type byte) override;
  std::streamsize xsputn(const char* text, std::streamsize count) override;
  int sync() override;

private:
  std::streambuf* m_target;
};

// While alive, everything written to `stream` goes through terminal_safe (main() holds one for
// std::cout and one for std::cerr).
class terminal_safe_scope {
public:
  explicit terminal_safe_scope(std::ostream& stream);
  terminal_safe_scope(const terminal_safe_scope&) = delete;
  terminal_safe_scope& operator=(const terminal_safe_scope&) = delete;
  ~terminal_safe_scope();

private:
  std::ostream& m_stream;
  std::streambuf* m_original;
  terminal_safe_buffer m_buffer;
};

}  // namespace aorta::detail
