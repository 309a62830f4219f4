#include "captures/json_scanner.hpp"

#include <fmt/format.h>

namespace aorta::detail {

namespace {

int hex_value(char c) noexcept {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// Reads XXXX after "\u" at raw[i]; -1 when malformed.
long read_hex4(std::string_view raw, std::size_t i) noexcept {
  if (i + 4 > raw.size()) return -1;
  long v = 0;
  for (std::size_t k = 0; k < 4; ++k) {
    const int h = hex_value(raw[i + k]);
    if (h < 0) return -1;
    v = v * 16 + h;
  }
  return v;
}

void append_utf8(std::string& out, unsigned long cp) {
  if (cp < 0x80) {
    out.push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    out.push_back(static_cast<char>(0xC0 | (cp >> 6)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else if (cp < 0x10000) {
    out.push_back(static_cast<char>(0xE0 | (cp >> 12)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else {
    out.push_back(static_cast<char>(0xF0 | (cp >> 18)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  }
}

}  // namespace

std::size_t json_unescape(std::string_view raw, std::string& out) {
  out.clear();
  std::size_t i = 0;
  while (i < raw.size()) {
    const std::size_t slash = raw.find('\\', i);
    if (slash == std::string_view::npos) {
      out.append(raw.substr(i));
      break;
    }
    out.append(raw.substr(i, slash - i));
    if (slash + 1 >= raw.size()) return slash;
    const char e = raw[slash + 1];
    i = slash + 2;
    switch (e) {
    case '"': out.push_back('"'); break;
    case '\\': out.push_back('\\'); break;
    case '/': out.push_back('/'); break;
    case 'b': out.push_back('\b'); break;
    case 'f': out.push_back('\f'); break;
    case 'n': out.push_back('\n'); break;
    case 'r': out.push_back('\r'); break;
    case 't': out.push_back('\t'); break;
    case 'u': {
      const long hi = read_hex4(raw, i);
      if (hi < 0) return slash;
      i += 4;
      unsigned long cp = static_cast<unsigned long>(hi);
      if (hi >= 0xD800 && hi <= 0xDBFF) {
        // A high surrogate must be followed by an escaped low surrogate.
        if (i + 2 > raw.size() || raw[i] != '\\' || raw[i + 1] != 'u') return slash;
        const long lo = read_hex4(raw, i + 2);
        if (lo < 0xDC00 || lo > 0xDFFF) return slash;
        i += 6;
        cp = 0x10000 + ((static_cast<unsigned long>(hi) - 0xD800) << 10) +
             (static_cast<unsigned long>(lo) - 0xDC00);
      } else if (hi >= 0xDC00 && hi <= 0xDFFF) {
        return slash;
      }
      append_utf8(out, cp);
      break;
    }
    default: return slash;
    }
  }
  return std::string_view::npos;
}

bool json_number_is_valid(std::string_view t) noexcept {
  std::size_t i = 0;
  const auto digit = [&](std::size_t k) { return k < t.size() && t[k] >= '0' && t[k] <= '9'; };
  if (i < t.size() && t[i] == '-') ++i;
  if (!digit(i)) return false;
  if (t[i] == '0') {
    ++i;
  } else {
    while (digit(i)) ++i;
  }
  if (i < t.size() && t[i] == '.') {
    ++i;
    if (!digit(i)) return false;
    while (digit(i)) ++i;
  }
  if (i < t.size() && (t[i] == 'e' || t[i] == 'E')) {
    ++i;
    if (i < t.size() && (t[i] == '+' || t[i] == '-')) ++i;
    if (!digit(i)) return false;
    while (digit(i)) ++i;
  }
  return i == t.size();
}

std::string json_describe_char(int c) {
  if (c < 0) return "end of input";
  if (c >= 0x20 && c < 0x7F) return fmt::format("'{}'", static_cast<char>(c));
  return fmt::format("byte 0x{:02x}", c);
}

}  // namespace aorta::detail
